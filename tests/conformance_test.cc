// Sequential conformance: every variant of a family, called from one thread,
// behaves as the family's sequential model (the one the linearizability
// oracle uses: checkpoint_model.h, state_model.h) allows. The operations run
// through the family binding, as in a scenario, and every result must be one
// that M::step accepts in the model's state at that point (per session for
// the checkpoint family, whose model is partitioned). The buggy variants are
// buggy only under concurrency, so they pass too.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "checkpoint_family.h"
#include "state_family.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

// One thread, no pauses: what a sequential caller gives an operation.
class SequentialContext : public OpContext {
 public:
  int thread() const override { return 0; }
  void pause() override {}
  std::uint64_t now() override { return ++clock_; }

 private:
  std::uint64_t clock_ = 0;
};

// The part of the model an operation belongs to ("" for an unpartitioned
// model).
template <SequentialModel M>
std::string part_of(const typename M::Input& input) {
  if constexpr (PartitionedModel<M>) {
    return kit_internal::partition_text(M::partition(input));
  } else {
    return "";
  }
}

// Runs `program` on `store` through the family F and checks each result
// against F's model.
template <Family F>
::testing::AssertionResult conforms(
    typename F::Store& store, const std::vector<typename F::Op>& program) {
  using M = typename F::Model;
  std::map<std::string, typename M::State> parts;
  SequentialContext ctx;
  for (std::size_t i = 0; i < program.size(); ++i) {
    const typename F::Op& op = program[i];
    const typename F::Result result = F::execute(store, op, ctx, nullptr);
    typename M::State& state = parts[part_of<M>(op)];
    typename M::State next;
    if (!M::step(state, op, result, &next)) {
      return ::testing::AssertionFailure()
             << "operation " << i << ": " << M::describe(op, result)
             << " is not what the model allows in " << M::describe(state);
    }
    state = next;
  }
  return ::testing::AssertionSuccess();
}

std::vector<checkpoint::CheckpointOp> random_checkpoint_program(
    std::uint64_t seed) {
  using checkpoint::CheckpointOp;
  std::mt19937_64 rng(seed);
  std::vector<CheckpointOp> program;
  for (int step = 0; step < 200; ++step) {
    std::string session = "s" + std::to_string(rng() % 4);
    switch (rng() % 4) {
      case 0:
        program.push_back(
            CheckpointOp::commit(session, "p" + std::to_string(step)));
        break;
      case 1:
        program.push_back(CheckpointOp::lookup(
            session, static_cast<std::int64_t>(rng() % 8)));
        break;
      case 2:
        program.push_back(
            CheckpointOp::lookup(session, CheckpointOp::kLastCommit));
        break;
      default:
        program.push_back(CheckpointOp::retrieve_index(session));
    }
  }
  return program;
}

class CheckpointConformance : public ::testing::TestWithParam<
                                  SubjectEntry<checkpoint::CheckpointStore>> {};

TEST_P(CheckpointConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    auto store = GetParam().make();
    EXPECT_TRUE(conforms<checkpoint::CheckpointFamily>(
        *store, random_checkpoint_program(seed)))
        << "seed " << seed;
  }
}

TEST_P(CheckpointConformance, UnknownSessionIsEmpty) {
  using checkpoint::CheckpointOp;
  auto store = GetParam().make();
  EXPECT_TRUE(conforms<checkpoint::CheckpointFamily>(
      *store, {CheckpointOp::lookup("nobody", 0),
               CheckpointOp::retrieve_index("nobody")}));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CheckpointConformance,
                         ::testing::ValuesIn(checkpoint_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

std::vector<state::StateOp> random_state_program(std::uint64_t seed) {
  using state::StateOp;
  std::mt19937_64 rng(seed);
  std::vector<StateOp> program;
  for (int step = 0; step < 200; ++step) {
    std::string key = "k" + std::to_string(rng() % 12);
    switch (rng() % 5) {
      case 0:
        program.push_back(StateOp::set(key, "v" + std::to_string(step)));
        break;
      case 1:
        program.push_back(StateOp::get(key));
        break;
      case 2:
        program.push_back(StateOp::erase(key));
        break;
      case 3:
        program.push_back(StateOp::all());
        break;
      default:
        program.push_back(StateOp::all(false, 1 + static_cast<int>(rng() % 4)));
    }
  }
  return program;
}

class StateConformance
    : public ::testing::TestWithParam<SubjectEntry<state::StateStore>> {};

TEST_P(StateConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    auto store = GetParam().make();
    EXPECT_TRUE(
        conforms<state::StateFamily>(*store, random_state_program(seed)))
        << "seed " << seed;
  }
}

TEST_P(StateConformance, AllStopsWhenYieldReturnsFalse) {
  using state::StateOp;
  auto store = GetParam().make();
  std::vector<StateOp> program;
  for (int i = 0; i < 10; ++i)
    program.push_back(StateOp::set("k" + std::to_string(i), "v"));
  program.push_back(StateOp::all(false, 3));
  // The store is still usable after an early stop (no lock left behind).
  program.push_back(StateOp::set("after", "stop"));
  program.push_back(StateOp::get("after"));
  EXPECT_TRUE(conforms<state::StateFamily>(*store, program));
  SequentialContext ctx;
  EXPECT_EQ(
      state::StateFamily::execute(*store, StateOp::all(false, 3), ctx, nullptr)
          .entries.size(),
      3u);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, StateConformance,
                         ::testing::ValuesIn(state_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

}  // namespace
}  // namespace racelab
