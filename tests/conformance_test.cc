// Sequential conformance: every variant of a family, called from one thread,
// behaves as the family's sequential model (the one the linearizability
// oracle uses: the model classes of checkpoint_spec.h and state_spec.h)
// allows. The operations run through the spec's declared operations, as in a
// scenario, and every result must be one the declared model accepts in its
// state at that point (per session for the checkpoint spec, which is
// partitioned by its session argument). The buggy variants are buggy only
// under concurrency, so they pass too.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>

#include "checkpoint_spec.h"
#include "spec_calls.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

using checkpoint::IndexRead;
using checkpoint::LookupId;
using state::AllFlags;
using state::Entries;

// One thread, no pauses: what a sequential caller gives an operation. Nested
// calls run on the same store.
class SequentialContext : public CallContext {
 public:
  SequentialContext(const SpecRef& spec, void* store)
      : spec_(spec), store_(store) {}
  int thread() const override { return 0; }
  void pause() override {}
  std::uint64_t now(Tick) override { return ++clock_; }
  void run_nested(const PlannedCall& planned) override {
    const DeclaredCall c = testing::declared(spec_, planned);
    spec_->ops[static_cast<std::size_t>(c.op)].run(store_, c.args.get(), *this);
  }

 private:
  SpecRef spec_;
  void* store_;
  std::uint64_t clock_ = 0;
};

// Runs `program` on `store` (a pointer to the spec's Store class) through the
// spec's operations and checks each result against the spec's model.
::testing::AssertionResult conforms(const SpecRef& spec, void* store,
                                    const std::vector<PlannedCall>& program) {
  std::map<std::string, std::shared_ptr<void>> parts;
  SequentialContext ctx(spec, store);
  for (std::size_t i = 0; i < program.size(); ++i) {
    const DeclaredCall c = testing::declared(spec, program[i]);
    const OperationDecl& d = spec->ops[static_cast<std::size_t>(c.op)];
    const ErasedValue result = d.run(store, c.args.get(), ctx);
    const std::string part =
        spec->partition_argument < 0
            ? ""
            : d.show_arg(c.args.get(), spec->partition_argument);
    std::shared_ptr<void>& model = parts[part];
    if (!model) model = spec->make_model();
    const std::string before = spec->show_model(model.get());
    if (!d.step(model.get(), c.args.get(), result.get())) {
      return ::testing::AssertionFailure()
             << "operation " << i << ": " << d.name << "("
             << d.show_args(c.args.get()) << ") -> "
             << d.show_result(result.get())
             << " is not what the model allows in " << before;
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<PlannedCall> random_checkpoint_program(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<PlannedCall> program;
  for (int step = 0; step < 200; ++step) {
    std::string session = "s" + std::to_string(rng() % 4);
    switch (rng() % 4) {
      case 0:
        program.push_back(call("commit", session, "p" + std::to_string(step)));
        break;
      case 1:
        program.push_back(call("lookup", session,
                               LookupId{static_cast<std::int64_t>(rng() % 8)}));
        break;
      case 2:
        program.push_back(call("lookup", session, LookupId{}));
        break;
      default:
        program.push_back(call("index", session, IndexRead{}));
    }
  }
  return program;
}

class CheckpointConformance : public ::testing::TestWithParam<
                                  SubjectEntry<checkpoint::CheckpointStore>> {};

const SpecRef& checkpoint() {
  static const SpecRef* spec = new SpecRef(checkpoint::checkpoint_spec());
  return *spec;
}

TEST_P(CheckpointConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::unique_ptr<checkpoint::CheckpointStore> store = GetParam().make();
    EXPECT_TRUE(
        conforms(checkpoint(), store.get(), random_checkpoint_program(seed)))
        << "seed " << seed;
  }
}

TEST_P(CheckpointConformance, UnknownSessionIsEmpty) {
  std::unique_ptr<checkpoint::CheckpointStore> store = GetParam().make();
  EXPECT_TRUE(conforms(checkpoint(), store.get(),
                       {call("lookup", "nobody", LookupId{0}),
                        call("index", "nobody", IndexRead{})}));
}

TEST_P(CheckpointConformance, IndexReadSlowlyAndLookupOfTheLastCommit) {
  std::unique_ptr<checkpoint::CheckpointStore> store = GetParam().make();
  EXPECT_TRUE(conforms(
      checkpoint(), store.get(),
      {call("commit", "s", "a"), call("commit", "s", "b"),
       call("lookup", "s", LookupId{}), call("index", "s", IndexRead{true})}));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CheckpointConformance,
                         ::testing::ValuesIn(checkpoint_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

std::vector<PlannedCall> random_state_program(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<PlannedCall> program;
  for (int step = 0; step < 200; ++step) {
    std::string key = "k" + std::to_string(rng() % 12);
    switch (rng() % 5) {
      case 0:
        program.push_back(call("set", key, "v" + std::to_string(step)));
        break;
      case 1:
        program.push_back(call("get", key));
        break;
      case 2:
        program.push_back(call("erase", key));
        break;
      case 3:
        program.push_back(call("all", AllFlags{}));
        break;
      default:
        program.push_back(call(
            "all", AllFlags{false, 1 + static_cast<int>(rng() % 4), false}));
    }
  }
  return program;
}

class StateConformance
    : public ::testing::TestWithParam<SubjectEntry<state::StateStore>> {};

const SpecRef& state_map() {
  static const SpecRef* spec = new SpecRef(state::state_spec());
  return *spec;
}

TEST_P(StateConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::unique_ptr<state::StateStore> store = GetParam().make();
    EXPECT_TRUE(conforms(state_map(), store.get(), random_state_program(seed)))
        << "seed " << seed;
  }
}

TEST_P(StateConformance, AllStopsWhenYieldReturnsFalse) {
  std::unique_ptr<state::StateStore> store = GetParam().make();
  std::vector<PlannedCall> program;
  for (int i = 0; i < 10; ++i)
    program.push_back(call("set", "k" + std::to_string(i), "v"));
  program.push_back(call("all", AllFlags{false, 3, false}));
  // The store is still usable after an early stop (no lock left behind).
  program.push_back(call("set", "after", "stop"));
  program.push_back(call("get", "after"));
  EXPECT_TRUE(conforms(state_map(), store.get(), program));
  const DeclaredCall all =
      testing::declared(state_map(), call("all", AllFlags{false, 3, false}));
  SequentialContext ctx(state_map(), store.get());
  const ErasedValue yielded =
      state_map()->ops[static_cast<std::size_t>(all.op)].run(
          store.get(), all.args.get(), ctx);
  EXPECT_EQ(static_cast<const Entries*>(yielded.get())->items.size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, StateConformance,
                         ::testing::ValuesIn(state_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

}  // namespace
}  // namespace racelab
