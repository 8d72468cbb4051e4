// The families' sequential models (checkpoint_model.h, state_model.h): what
// each operation may return in a state and what state it leaves; and the
// kit's partitioned linearizability (linearizability.h, kit.h), which checks
// a history one part at a time, for the checkpoint family's sessions and for
// a user's model keyed by an integer.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "checkpoint_family.h"
#include "racelab/kit.h"
#include "state_family.h"

namespace racelab {
namespace {

using checkpoint::CheckpointId;
using checkpoint::CheckpointOp;
using checkpoint::CheckpointResult;
using checkpoint::SessionModel;
using state::MapModel;
using state::StateOp;
using state::StateResult;

// The state M::step leaves, or nullopt when it refuses `out`.
template <class M>
std::optional<typename M::State> step(const typename M::State& s,
                                      const typename M::Input& in,
                                      const typename M::Output& out) {
  typename M::State next;
  if (!M::step(s, in, out, &next)) return std::nullopt;
  return next;
}

CheckpointResult committed(CheckpointId id) { return {id, std::nullopt, {}}; }
CheckpointResult looked_up(CheckpointId id, std::optional<std::string> p) {
  return {id, std::move(p), {}};
}
CheckpointResult indexed(std::vector<CheckpointId> ids) {
  return {0, std::nullopt, std::move(ids)};
}

TEST(SessionModel, CommitReturnsTheNextIdAndAppends) {
  const SessionModel::State s = {"a"};
  EXPECT_EQ(step<SessionModel>(s, CheckpointOp::commit("s", "b"), committed(1)),
            (SessionModel::State{"a", "b"}));
  EXPECT_FALSE(
      step<SessionModel>(s, CheckpointOp::commit("s", "b"), committed(0)));
  EXPECT_FALSE(
      step<SessionModel>(s, CheckpointOp::commit("s", "b"), committed(2)));
}

TEST(SessionModel, LookupReturnsThePayloadOrNotFound) {
  const SessionModel::State s = {"a", "b"};
  EXPECT_EQ(
      step<SessionModel>(s, CheckpointOp::lookup("s", 1), looked_up(1, "b")),
      s);
  EXPECT_EQ(step<SessionModel>(s, CheckpointOp::lookup("s", 2),
                               looked_up(2, std::nullopt)),
            s);
  EXPECT_FALSE(
      step<SessionModel>(s, CheckpointOp::lookup("s", 1), looked_up(1, "a")));
  EXPECT_FALSE(step<SessionModel>(s, CheckpointOp::lookup("s", 0),
                                  looked_up(0, std::nullopt)));
  EXPECT_FALSE(
      step<SessionModel>(s, CheckpointOp::lookup("s", 5), looked_up(5, "a")));
}

TEST(SessionModel, IndexIsEveryIdInCommitOrder) {
  const SessionModel::State s = {"a", "b", "c"};
  const CheckpointOp index = CheckpointOp::retrieve_index("s");
  EXPECT_EQ(step<SessionModel>(s, index, indexed({0, 1, 2})), s);
  EXPECT_FALSE(step<SessionModel>(s, index, indexed({0, 1})));
  EXPECT_FALSE(step<SessionModel>(s, index, indexed({0, 2, 1})));
  EXPECT_FALSE(step<SessionModel>(s, index, indexed({0, 1, 2, 3})));
  EXPECT_EQ(step<SessionModel>({}, index, indexed({})), SessionModel::State{});
}

TEST(SessionModel, PartitionsBySession) {
  static_assert(PartitionedModel<SessionModel>);
  static_assert(!PartitionedModel<MapModel>);
  EXPECT_EQ(SessionModel::partition(CheckpointOp::commit("s7", "p")), "s7");
  EXPECT_EQ(SessionModel::describe(SessionModel::State{"a", "b"}),
            "{0=a, 1=b}");
}

StateResult entries(std::vector<std::pair<std::string, std::string>> e) {
  return {std::nullopt, false, std::move(e)};
}

TEST(MapModel, SetGetErase) {
  const MapModel::State s = {{"k", "1"}};
  EXPECT_EQ(step<MapModel>(s, StateOp::set("k", "2"), {}),
            (MapModel::State{{"k", "2"}}));
  EXPECT_EQ(step<MapModel>(s, StateOp::get("k"), {"1", false, {}}), s);
  EXPECT_FALSE(step<MapModel>(s, StateOp::get("k"), {"2", false, {}}));
  EXPECT_FALSE(step<MapModel>(s, StateOp::get("k"), {std::nullopt, false, {}}));
  EXPECT_EQ(step<MapModel>(s, StateOp::get("x"), {std::nullopt, false, {}}), s);
  EXPECT_EQ(step<MapModel>(s, StateOp::erase("k"), {std::nullopt, true, {}}),
            MapModel::State{});
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::erase("k"), {std::nullopt, false, {}}));
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::erase("x"), {std::nullopt, true, {}}));
}

TEST(MapModel, AllYieldsExactlyTheContentsInAnyOrder) {
  const MapModel::State s = {{"a", "1"}, {"b", "2"}};
  EXPECT_EQ(
      step<MapModel>(s, StateOp::all(), entries({{"b", "2"}, {"a", "1"}})), s);
  // Missing, stale, unknown and duplicated entries are no state of the map.
  EXPECT_FALSE(step<MapModel>(s, StateOp::all(), entries({{"a", "1"}})));
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::all(), entries({{"a", "0"}, {"b", "2"}})));
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::all(), entries({{"a", "1"}, {"c", "3"}})));
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::all(), entries({{"a", "1"}, {"a", "1"}})));
}

TEST(MapModel, AnEarlyStopYieldsThatManyEntriesOfTheContents) {
  const MapModel::State s = {{"a", "1"}, {"b", "2"}, {"c", "3"}};
  EXPECT_TRUE(step<MapModel>(s, StateOp::all(false, 2),
                             entries({{"c", "3"}, {"a", "1"}})));
  EXPECT_FALSE(
      step<MapModel>(s, StateOp::all(false, 2), entries({{"c", "3"}})));
  EXPECT_TRUE(step<MapModel>(s, StateOp::all(false, 5),
                             entries({{"a", "1"}, {"b", "2"}, {"c", "3"}})));
}

// A history event.
template <class Op, class Result>
Event<Op, Result> event(int thread, std::uint64_t call, std::uint64_t ret,
                        Op op, Result result) {
  return {thread, false, std::move(op), std::move(result), call, ret};
}

using CheckpointHistory = History<CheckpointOp, CheckpointResult>;

TEST(PartitionedLinearizability, EachSessionIsCheckedOnItsOwn) {
  // Session s1 is fine; s2 has two overlapping commits that got the same id
  // (a lost commit), and a later index shows only one.
  CheckpointHistory history = {
      event(0, 1, 2, CheckpointOp::commit("s1", "a"), committed(0)),
      event(1, 3, 6, CheckpointOp::commit("s2", "x"), committed(0)),
      event(2, 4, 7, CheckpointOp::commit("s2", "y"), committed(0)),
      event(0, 8, 9, CheckpointOp::retrieve_index("s1"), indexed({0})),
  };
  std::vector<Finding> findings;
  checkpoint::CheckpointFamily::check_linearizability(history, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::kNotLinearizable);
  EXPECT_EQ(findings[0].summary.rfind("session 's2': thread ", 0), 0u)
      << findings[0].summary;
  EXPECT_NE(findings[0].detail.find("session"), std::string::npos);

  // The same operations with distinct ids are linearizable.
  history[2].result = committed(1);
  findings.clear();
  checkpoint::CheckpointFamily::check_linearizability(history, findings);
  EXPECT_TRUE(findings.empty()) << findings[0].summary;
}

TEST(PartitionedLinearizability, AViolationInEverySessionIsAFindingEach) {
  CheckpointHistory history = {
      event(0, 1, 2, CheckpointOp::commit("a", "1"), committed(1)),
      event(1, 3, 4, CheckpointOp::commit("b", "1"), committed(5)),
  };
  std::vector<Finding> findings;
  checkpoint::CheckpointFamily::check_linearizability(history, findings);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].summary.rfind("session 'a'", 0), 0u);
  EXPECT_EQ(findings[1].summary.rfind("session 'b'", 0), 0u);
}

TEST(PartitionedLinearizability, SetupOperationsFoldIntoTheirOwnPart) {
  // Setup committed one checkpoint to s1 only: the run's first commit to s1
  // gets id 1, to s2 id 0.
  CheckpointHistory history = {
      event(kSetupThread, 0, 0, CheckpointOp::commit("s1", "old"),
            committed(0)),
      event(0, 1, 2, CheckpointOp::commit("s1", "new"), committed(1)),
      event(1, 3, 4, CheckpointOp::commit("s2", "new"), committed(0)),
  };
  std::vector<Finding> findings;
  checkpoint::CheckpointFamily::check_linearizability(history, findings);
  EXPECT_TRUE(findings.empty()) << findings[0].summary;
}

// A user's model: registers keyed by an integer, each holding one value.
struct Register {
  enum class Kind { kWrite, kRead };
  Kind kind;
  int key;
  int value;
};
struct RegisterModel {
  using State = int;
  using Input = Register;
  using Output = int;  // read: the value; write: 0
  static int partition(const Input& in) { return in.key; }
  static std::size_t hash(const State& s) {
    return static_cast<std::size_t>(s);
  }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    if (in.kind == Register::Kind::kWrite) {
      *next = in.value;
      return true;
    }
    *next = s;
    return out == s;
  }
  static std::string describe(const Input& in, const Output& out) {
    return in.kind == Register::Kind::kWrite
               ? "write(" + std::to_string(in.value) + ")"
               : "read -> " + std::to_string(out);
  }
  static std::string describe(const State& s) { return std::to_string(s); }
};

TEST(PartitionedLinearizability, AUsersModelGetsItToo) {
  static_assert(PartitionedModel<RegisterModel>);
  using W = Register;
  History<Register, int> history = {
      event(0, 1, 2, W{W::Kind::kWrite, 1, 5}, 0),
      event(1, 3, 4, W{W::Kind::kRead, 1, 0}, 5),
      event(1, 5, 6, W{W::Kind::kRead, 2, 0}, 0),
      event(0, 7, 8, W{W::Kind::kRead, 2, 0}, 9),  // key 2 never held 9
  };
  std::vector<Finding> findings;
  check_history_with_model<RegisterModel>(history, findings);
  ASSERT_EQ(findings.size(), 1u);
  // No kPartitionName: the part is named "part".
  EXPECT_EQ(findings[0].summary,
            "part '2': thread 0: read -> 9 returned a result no sequential "
            "order explains");
}

TEST(Linearizability, TheStateFamilysSummaryNamesTheCallAlone) {
  History<StateOp, StateResult> history = {
      event(kSetupThread, 0, 0, StateOp::set("a", "1"), StateResult{}),
      event(0, 1, 2, StateOp::all(), entries({{"a", "1"}, {"b", "2"}})),
  };
  std::vector<Finding> findings;
  state::StateFamily::check_linearizability(history, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].summary,
            "thread 0: all() returned a result no sequential order explains");
}

}  // namespace
}  // namespace racelab
