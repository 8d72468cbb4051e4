// The litmus suite under racelab::explore: for every test, order and
// outcome, a dfs search with no preemption bound looks for a schedule that
// reaches the outcome, with the memory-model mode and without it.
//
// With the mode an outcome must be reached exactly when the C++ memory model
// allows it under that order and racelab's fragment can show it
// (litmus_tests.h marks the two outcomes it cannot: load buffering and
// 2+2W); an outcome the model forbids must come out verified, every
// schedule and every store each load may read having been tried. Without
// the mode only the sequentially consistent outcomes (those seq_cst allows)
// may be reached. Each case prints its table row (docs/memory-model.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "litmus_tests.h"
#include "racelab/explore.h"

namespace {

struct Case {
  const litmus::Test* test;
  litmus::Order order;
  const litmus::Outcome* outcome;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = std::string(info.param.test->name) + "_" +
                     litmus::order_name(info.param.order) + "_" +
                     info.param.outcome->value;
  for (char& c : name) {
    if (c == ',') c = '_';
    if (c == '+') c = 'p';
  }
  return name;
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const litmus::Test& test : litmus::tests()) {
    for (litmus::Order order : litmus::kOrders) {
      for (const litmus::Outcome& outcome : test.outcomes) {
        out.push_back({&test, order, &outcome});
      }
    }
  }
  return out;
}

// "reached at schedule N" or "not reached (verified over N)".
struct Search {
  bool reached = false;
  bool verified = false;
  int schedules = 0;
  std::string text;
};

Search search(const Case& c, bool memory_model) {
  racelab::ExploreOptions options;
  options.strategy = "dfs";
  options.preemptions = -1;
  options.budget = 100000;
  options.memory_model = memory_model;
  options.schedule_dir = testing::TempDir();
  options.name = "litmus";
  const std::string target = c.outcome->value;
  const litmus::Test* test = c.test;
  const litmus::Order order = c.order;
  const racelab::ExploreResult result = racelab::explore(
      [test, order, target] {
        if (test->run(order) == target) std::abort();
      },
      options);
  Search s;
  s.reached = result.found();
  s.verified = result.exhausted && !result.found();
  s.schedules = result.schedules;
  s.text =
      s.reached
          ? "reached at schedule " + std::to_string(result.first_failing + 1)
      : s.verified
          ? "not reached, verified over " + std::to_string(result.schedules)
          : "not reached in " + std::to_string(result.schedules);
  if (s.reached) {
    for (const racelab::Finding& f : result.findings) {
      EXPECT_EQ(f.kind, racelab::FindingKind::kCrash) << result.message;
    }
  }
  return s;
}

class Litmus : public testing::TestWithParam<Case> {};

TEST_P(Litmus, ReachesWhatTheModelAllowsAndNothingElse) {
  const Case& c = GetParam();
  const litmus::Orders me = litmus::bit(c.order);
  const bool allowed = (c.outcome->allowed & me) != 0;
  const bool in_fragment = (c.outcome->outside_fragment & me) == 0;
  const bool sequentially_consistent =
      (c.outcome->allowed & litmus::bit(litmus::kSeqCst)) != 0;

  const Search with = search(c, true);
  const Search without = search(c, false);
  std::printf(
      "| %s | %s | %s | %s | %s | %s |\n", c.test->name,
      litmus::order_name(c.order), c.outcome->value,
      allowed ? (in_fragment ? "yes" : "yes, outside the fragment") : "no",
      with.text.c_str(), without.text.c_str());

  EXPECT_EQ(with.reached, allowed && in_fragment) << with.text;
  if (!with.reached) {
    EXPECT_TRUE(with.verified) << with.text;
  }
  EXPECT_EQ(without.reached, sequentially_consistent) << without.text;
  if (!without.reached) {
    EXPECT_TRUE(without.verified) << without.text;
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, Litmus, testing::ValuesIn(all_cases()),
                         case_name);

}  // namespace
