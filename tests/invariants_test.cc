// The specs' invariants (checkpoint_spec.cc, state_spec.cc): each one fires
// on a hand-made run that breaks it, naming what broke, and stays silent on a
// good run of the same operations.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "checkpoint_spec.h"
#include "spec_calls.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

using checkpoint::CheckpointId;
using checkpoint::IndexRead;
using checkpoint::Looked;
using checkpoint::LookupId;
using state::AllFlags;
using state::Entries;
using testing::made;
using testing::MadeCall;
using testing::value;

std::string summaries(const std::vector<std::string>& broken) {
  std::string out;
  for (const std::string& b : broken) out += b + "\n";
  return out;
}

// One of the broken invariants says `what`.
void expect_one_says(const std::vector<std::string>& broken,
                     std::string_view what) {
  bool found = false;
  for (const std::string& b : broken)
    found = found || b.find(what) != std::string::npos;
  EXPECT_TRUE(found) << "no invariant says '" << what << "'; broken:\n"
                     << summaries(broken);
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

using MadeRun = std::vector<MadeCall>;

std::vector<std::string> checkpoint_findings(
    const MadeRun& run,
    const std::vector<std::pair<std::string, std::string>>& store_commits) {
  static const SpecRef spec = checkpoint::checkpoint_spec();
  auto store = checkpoint_store_with(store_commits);
  return testing::broken_invariants(spec, run, store.get());
}

MadeCall commit(int thread, const char* session, const char* payload,
                CheckpointId id) {
  return made(thread, call("commit", session, payload), id);
}

// Two commits to s1, ids 0 and 1, a lookup of each thread's own commit, an
// index read: what a correct store gives.
MadeRun good_checkpoint_run() {
  return {
      commit(0, "s1", "a", 0),
      commit(1, "s1", "b", 1),
      made(0, call("lookup", "s1", LookupId{}), Looked{0, "a"}),
      made(1, call("index", "s1", IndexRead{}),
           std::vector<CheckpointId>{0, 1}),
  };
}
const std::vector<std::pair<std::string, std::string>> kGoodStore = {
    {"s1", "a"}, {"s1", "b"}};

TEST(CheckpointInvariants, AGoodRunHasNoFinding) {
  EXPECT_TRUE(checkpoint_findings(good_checkpoint_run(), kGoodStore).empty())
      << summaries(checkpoint_findings(good_checkpoint_run(), kGoodStore));
}

TEST(CheckpointInvariants, TwoCommitsWithOneId) {
  MadeRun h = good_checkpoint_run();
  h[1].result = value(CheckpointId{0});
  expect_one_says(checkpoint_findings(h, {{"s1", "a"}}),
                  "two commits to session 's1' returned the same id 0");
}

TEST(CheckpointInvariants, ACommitTheStoreNoLongerHas) {
  // The store kept "x" where thread 1's commit says it put "b".
  expect_one_says(
      checkpoint_findings(good_checkpoint_run(), {{"s1", "a"}, {"s1", "x"}}),
      "lost commit: thread 1 committed 'b' to session 's1' and got id 1, but "
      "after the run lookup(s1,1) returns 'x'");
}

TEST(CheckpointInvariants, AFinalIndexThatMissesACommit) {
  // Two commits in the run, one in the store; the lookups agree with the
  // store so only the index count is wrong.
  MadeRun h = {commit(0, "s1", "a", 0), commit(1, "s2", "b", 0)};
  expect_one_says(
      checkpoint_findings(h, {{"s1", "a"}, {"s2", "b"}, {"s2", "c"}}),
      "after 1 commits to session 's2' its index is [0,1], "
      "expected [0]");
}

TEST(CheckpointInvariants, AnIndexReadThatIsNoPrefix) {
  MadeRun h = good_checkpoint_run();
  h[3].result = value(std::vector<CheckpointId>{1});
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 1: index(s1) read [1], which is no prefix of the "
                  "commit order");
}

TEST(CheckpointInvariants, ALookupOfAPayloadNobodyStored) {
  MadeRun h = good_checkpoint_run();
  h[2].result = value(Looked{0, "zz"});
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 0: lookup(s1,0) returned 'zz', which no commit "
                  "stored there");
}

TEST(CheckpointInvariants, ALookupOfOnesOwnCommitThatIsNotFound) {
  MadeRun h = good_checkpoint_run();
  h[2].result = value(Looked{0, std::nullopt});
  expect_one_says(checkpoint_findings(h, kGoodStore),
                  "thread 0: lookup(s1,0) of its own completed commit "
                  "returned not_found");
}

std::vector<std::string> state_findings(const MadeRun& run) {
  static const SpecRef spec = state::state_spec();
  auto store = state_subjects().front().make();
  return testing::broken_invariants(spec, run, store.get());
}

MadeCall set(int thread, const char* key, const char* value) {
  return made(thread, call("set", key, value), Done{});
}
MadeCall all(int thread, Entries yielded, AllFlags flags = {}) {
  return made(thread, call("all", flags), std::move(yielded));
}

// Setup sets a and b; thread 1 sets c while thread 0 iterates.
MadeRun good_state_run() {
  return {
      set(kSetupThread, "a", "1"),
      set(kSetupThread, "b", "2"),
      set(1, "c", "3"),
      all(0, {{{"a", "1"}, {"b", "2"}}}),
  };
}

TEST(StateInvariants, AGoodRunHasNoFinding) {
  EXPECT_TRUE(state_findings(good_state_run()).empty())
      << summaries(state_findings(good_state_run()));
}

TEST(StateInvariants, AKeyYieldedTwice) {
  MadeRun h = good_state_run();
  h[3] = all(0, {{{"a", "1"}, {"b", "2"}, {"a", "1"}}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded 3 entries with keys twice: a; no "
                  "state of a map has a key twice");
}

TEST(StateInvariants, AnEntryThatWasNeverSet) {
  MadeRun h = good_state_run();
  h[3] = all(0, {{{"a", "1"}, {"b", "9"}}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded entries that were never set: b=9");
}

TEST(StateInvariants, AKeyThatWasThereAllAlongIsSkipped) {
  MadeRun h = good_state_run();
  h[3] = all(0, {{{"a", "1"}, {"c", "3"}}});
  expect_one_says(state_findings(h),
                  "thread 0: all() yielded 2 entries but skipped keys that "
                  "were in the map for the whole run: b");
}

TEST(StateInvariants, AnEarlyStopOrATouchedKeyMayBeSkipped) {
  MadeRun stopped = good_state_run();
  stopped[3] = all(0, {{{"a", "1"}}}, AllFlags{false, 1, false});
  EXPECT_TRUE(state_findings(stopped).empty())
      << summaries(state_findings(stopped));
  MadeRun erased = good_state_run();
  erased.insert(erased.begin() + 2, made(1, call("erase", "b"), true));
  erased.back() = all(0, {{{"a", "1"}}});
  EXPECT_TRUE(state_findings(erased).empty())
      << summaries(state_findings(erased));
}

TEST(StateInvariants, NestedWritesCountAsSetEntries) {
  // all(write) set a' from inside its callback; a later all() yields it.
  MadeRun h = good_state_run();
  MadeCall nested = set(0, "a'", "1");
  nested.nested = true;
  h.push_back(nested);
  h.push_back(all(0, {{{"a", "1"}, {"a'", "1"}, {"b", "2"}, {"c", "3"}}}));
  EXPECT_TRUE(state_findings(h).empty()) << summaries(state_findings(h));
}

}  // namespace
}  // namespace racelab
