// The scenarios' invariants (checkpoint_scenarios.cc, state_scenarios.cc):
// each one fires on a hand-made history that breaks it, naming what broke,
// and stays silent on a good history of the same operations.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "checkpoint_scenarios.h"
#include "state_scenarios.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

using checkpoint::CheckpointId;
using checkpoint::CheckpointOp;
using checkpoint::CheckpointResult;
using state::StateOp;
using state::StateResult;

template <class Op, class Result>
Event<Op, Result> event(int thread, std::uint64_t call, Op op, Result result) {
  return {thread, false, std::move(op), std::move(result), call, call + 1};
}

std::string summaries(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) out += f.summary + "\n";
  return out;
}

// Every finding is an invariant's, and one of them says `what`.
void expect_one_says(const std::vector<Finding>& findings,
                     std::string_view what) {
  bool found = false;
  for (const Finding& f : findings) {
    EXPECT_EQ(f.oracle, "invariant") << f.summary;
    found = found || f.summary.find(what) != std::string::npos;
  }
  EXPECT_TRUE(found) << "no finding says '" << what << "'; findings:\n"
                     << summaries(findings);
}

// A fixed checkpoint store holding, per session, the given payloads.
std::unique_ptr<checkpoint::CheckpointStore> checkpoint_store_with(
    const std::vector<std::pair<std::string, std::string>>& commits) {
  for (const auto& s : checkpoint_subjects()) {
    if (std::string_view(s.variant) != "mutex") continue;
    auto store = s.make();
    for (const auto& [session, payload] : commits)
      store->commit(session, payload);
    return store;
  }
  ADD_FAILURE() << "no checkpoint/mutex";
  return nullptr;
}

using CheckpointHistory = History<CheckpointOp, CheckpointResult>;

std::vector<Finding> checkpoint_findings(
    const CheckpointHistory& history,
    const std::vector<std::pair<std::string, std::string>>& store_commits) {
  std::vector<Finding> findings;
  auto store = checkpoint_store_with(store_commits);
  checkpoint::check_checkpoint_invariants({}, history, *store, findings);
  return findings;
}

CheckpointResult id(CheckpointId i) { return {i, std::nullopt, {}}; }

// Two commits to s1, ids 0 and 1, a lookup of each thread's own commit, an
// index read: what a correct store gives.
CheckpointHistory good_checkpoint_history() {
  return {
      event(0, 1, CheckpointOp::commit("s1", "a"), id(0)),
      event(1, 3, CheckpointOp::commit("s1", "b"), id(1)),
      event(0, 5, CheckpointOp::lookup("s1", CheckpointOp::kLastCommit),
            CheckpointResult{0, "a", {}}),
      event(1, 7, CheckpointOp::retrieve_index("s1"),
            CheckpointResult{0, std::nullopt, {0, 1}}),
  };
}
const std::vector<std::pair<std::string, std::string>> kGoodStore = {
    {"s1", "a"}, {"s1", "b"}};

TEST(CheckpointInvariants, AGoodHistoryHasNoFinding) {
  EXPECT_TRUE(
      checkpoint_findings(good_checkpoint_history(), kGoodStore).empty())
      << summaries(checkpoint_findings(good_checkpoint_history(), kGoodStore));
}

TEST(CheckpointInvariants, TwoCommitsWithOneId) {
  CheckpointHistory h = good_checkpoint_history();
  h[1].result = id(0);
  expect_one_says(checkpoint_findings(h, {{"s1", "a"}}),
                  "two commits to session 's1' returned the same id 0");
}

TEST(CheckpointInvariants, ACommitTheStoreNoLongerHas) {
  // The store kept "x" where thread 1's commit says it put "b".
  expect_one_says(
      checkpoint_findings(good_checkpoint_history(),
                          {{"s1", "a"}, {"s1", "x"}}),
      "lost commit: thread 1 committed 'b' to session 's1' and got id 1, but "
      "after the run lookup(s1,1) returns 'x'");
}

TEST(CheckpointInvariants, AFinalIndexThatMissesACommit) {
  // Two commits in the history, one in the store; the lookups agree with
  // the store so only the index count is wrong.
  CheckpointHistory h = {
      event(0, 1, CheckpointOp::commit("s1", "a"), id(0)),
      event(1, 3, CheckpointOp::commit("s2", "b"), id(0)),
  };
  expect_one_says(
      checkpoint_findings(h, {{"s1", "a"}, {"s2", "b"}, {"s2", "c"}}),
      "after 1 commits to session 's2' its index is [0,1], "
      "expected [0]");
}

TEST(CheckpointInvariants, AnIndexReadThatIsNoPrefix) {
  CheckpointHistory h = good_checkpoint_history();
  h[3].result.index = {1};
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 1: index(s1) read [1], which is no prefix of the "
                  "commit order");
}

TEST(CheckpointInvariants, ALookupOfAPayloadNobodyStored) {
  CheckpointHistory h = good_checkpoint_history();
  h[2].result.payload = "zz";
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 0: lookup(s1,0) returned 'zz', which no commit "
                  "stored there");
}

TEST(CheckpointInvariants, ALookupOfOnesOwnCommitThatIsNotFound) {
  CheckpointHistory h = good_checkpoint_history();
  h[2].result.payload = std::nullopt;
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 0: lookup(s1,0) of its own completed commit "
                  "returned not_found");
}

using StateHistory = History<StateOp, StateResult>;

std::vector<Finding> state_findings(const StateHistory& history) {
  std::vector<Finding> findings;
  for (const auto& s : state_subjects()) {
    auto store = s.make();
    state::check_state_invariants({}, history, *store, findings);
    break;
  }
  return findings;
}

StateResult yielded(std::vector<std::pair<std::string, std::string>> e) {
  return {std::nullopt, false, std::move(e)};
}

// Setup sets a and b; thread 1 sets c while thread 0 iterates.
StateHistory good_state_history() {
  return {
      event(kSetupThread, 0, StateOp::set("a", "1"), StateResult{}),
      event(kSetupThread, 0, StateOp::set("b", "2"), StateResult{}),
      event(1, 1, StateOp::set("c", "3"), StateResult{}),
      event(0, 2, StateOp::all(), yielded({{"a", "1"}, {"b", "2"}})),
  };
}

TEST(StateInvariants, AGoodHistoryHasNoFinding) {
  EXPECT_TRUE(state_findings(good_state_history()).empty())
      << summaries(state_findings(good_state_history()));
}

TEST(StateInvariants, AKeyYieldedTwice) {
  StateHistory h = good_state_history();
  h[3].result = yielded({{"a", "1"}, {"b", "2"}, {"a", "1"}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded 3 entries with keys twice: a; no "
                  "state of a map has a key twice");
}

TEST(StateInvariants, AnEntryThatWasNeverSet) {
  StateHistory h = good_state_history();
  h[3].result = yielded({{"a", "1"}, {"b", "9"}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded entries that were never set: b=9");
}

TEST(StateInvariants, AKeyThatWasThereAllAlongIsSkipped) {
  StateHistory h = good_state_history();
  h[3].result = yielded({{"a", "1"}, {"c", "3"}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded 2 entries but skipped keys that "
                  "were in the map for the whole run: b");
}

TEST(StateInvariants, AnEarlyStopOrATouchedKeyMayBeSkipped) {
  StateHistory stopped = good_state_history();
  stopped[3].op = StateOp::all(false, 1);
  stopped[3].result = yielded({{"a", "1"}});
  EXPECT_TRUE(state_findings(stopped).empty())
      << summaries(state_findings(stopped));
  StateHistory erased = good_state_history();
  erased.insert(erased.begin() + 2,
                event(1, 1, StateOp::erase("b"), StateResult{}));
  erased.back().result = yielded({{"a", "1"}});
  EXPECT_TRUE(state_findings(erased).empty())
      << summaries(state_findings(erased));
}

}  // namespace
}  // namespace racelab
