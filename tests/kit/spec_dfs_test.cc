// dfs over a spec searches one program per tree: a seeded scenario's program
// stays the same in every schedule of a tree (the fixed stores' generated
// scenarios search cleanly, never exhaustively), and the schedules of a
// search depend on the program only, not on where its objects are allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "checkpoint_spec.h"
#include "racelab/spec.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace {

using racelab::call;
using racelab::CheckOptions;
using racelab::CheckResult;
using racelab::Plan;
using racelab::ProgramSize;

CheckOptions dfs(int budget) {
  CheckOptions options;
  options.strategy = "dfs";
  options.budget = budget;
  return options;
}

// Three counters, each behind its own mutex.
class Counters {
 public:
  int add(int k) {
    std::lock_guard<std::mutex> lock(mu_[k]);
    return ++value_[k];
  }

 private:
  std::mutex mu_[3];
  int value_[3] = {};
};

// A program of 1 to 3 threads, by the seed: under the old search, where
// schedule i ran the program of seed + i, dfs saw a thread count change
// between schedules ("the program does not behave the same when rerun").
Plan threads_by_seed(std::uint64_t seed) {
  Plan plan;
  const int threads = 1 + static_cast<int>(seed % 3);
  for (int t = 0; t < threads; ++t) {
    plan.threads.push_back({call("add", t % 3), call("add", (t + 1) % 3)});
  }
  return plan;
}

TEST(SpecDfs, EveryScheduleOfATreeRunsOneProgram) {
  std::set<std::uint64_t> seeds;
  auto spec = racelab::Spec<Counters>("counters")
                  .op("add", &Counters::add, racelab::ints(0, 2))
                  .without_random_scenario()
                  .scenario("by_seed", [&](std::uint64_t seed, ProgramSize) {
                    seeds.insert(seed);
                    return threads_by_seed(seed);
                  });
  CheckOptions options = dfs(400);
  options.isolate = false;  // the seeds are this process's
  const CheckResult result = spec.check("by_seed", options);
  ASSERT_TRUE(result.clean()) << result.message;
  // A seeded scenario is many programs: a search covers some of them, one
  // tree each, and is not exhaustive.
  EXPECT_FALSE(result.exhaustive) << result.message;
  EXPECT_EQ(result.message.find("does not behave the same"), std::string::npos)
      << result.message;
  EXPECT_GT(seeds.size(), 1u);  // the trees were exhausted: more programs
  EXPECT_EQ(*seeds.begin(), options.seed);
}

// The same scenario declared without the seed is one program: exhaustive.
TEST(SpecDfs, AnUnseededScenarioIsSearchedToTheEnd) {
  auto spec =
      racelab::Spec<Counters>("counters")
          .op("add", &Counters::add, racelab::ints(0, 2))
          .without_random_scenario()
          .scenario("three", [](ProgramSize) { return threads_by_seed(2); });
  const CheckResult result = spec.check("three", dfs(400));
  ASSERT_TRUE(result.clean()) << result.message;
  EXPECT_TRUE(result.exhaustive) << result.message;
  EXPECT_LT(result.schedules, 400);
}

// The store of every schedule sits elsewhere (the factory leaks a block of
// another size first): the search runs as many schedules as with the store
// where the allocator happens to put it.
TEST(SpecDfs, TheSchedulesDoNotDependOnWhereTheStoreIsAllocated) {
  const Plan plan{{},
                  {{call("add", 0), call("add", 1)},
                   {call("add", 1), call("add", 0)},
                   {call("add", 2), call("add", 2)}},
                  {}};
  auto spec = racelab::Spec<Counters>("counters")
                  .op("add", &Counters::add, racelab::ints(0, 2))
                  .without_random_scenario()
                  .scenario("crossed", plan);
  static std::vector<std::unique_ptr<char[]>> pads;
  int made = 0;
  auto moving = racelab::Spec<Counters>(spec).make([&made] {
    pads.push_back(std::make_unique<char[]>(64 * (1 + ++made % 5)));
    return std::make_unique<Counters>();
  });
  CheckOptions options = dfs(5000);
  options.preemptions = 1;
  options.isolate = false;  // `made` is this process's
  const CheckResult still = spec.check("crossed", options);
  const CheckResult moved = moving.check("crossed", options);
  ASSERT_TRUE(still.clean()) << still.message;
  ASSERT_TRUE(moved.clean()) << moved.message;
  EXPECT_TRUE(still.exhaustive);
  EXPECT_TRUE(moved.exhaustive);
  EXPECT_EQ(moved.schedules, still.schedules);
  EXPECT_GT(made, 1);
  // And the same search again gives the same count.
  EXPECT_EQ(spec.check("crossed", options).schedules, still.schedules);
}

// Every fixed subject of the catalog, dfs over its generated scenario: each
// tree searches one program, so a correct store is clean (not exhaustive:
// the scenario is a program per seed).
template <class Store, class SpecT>
void expect_generated_clean(
    const SpecT& family,
    const std::vector<racelab::SubjectEntry<Store>>& subjects) {
  for (const auto& s : subjects) {
    if (s.buggy) continue;
    const CheckResult result =
        SpecT(family).named(s.variant).make(s.make).check("generated",
                                                          dfs(300));
    EXPECT_TRUE(result.clean()) << s.variant << ": " << result.message;
    EXPECT_FALSE(result.exhaustive) << s.variant;
    EXPECT_EQ(result.message.find("does not behave the same"),
              std::string::npos)
        << s.variant << ": " << result.message;
  }
}

TEST(SpecDfs, TheFixedStoresGeneratedScenariosAreClean) {
  expect_generated_clean(racelab::checkpoint::checkpoint_spec(),
                         racelab::checkpoint_subjects());
  expect_generated_clean(racelab::state::state_spec(),
                         racelab::state_subjects());
}

}  // namespace
