// Tests of the strategies on their own: determinism per seed, PCT's priority
// rule, replay's errors and fallback, and the factory.
#include "racelab/internal/sched/strategy.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace racelab::sched {
namespace {

// Drives a strategy through a fake program: `threads` threads of `steps`
// scheduling points each, all always enabled until their points are used up.
std::vector<int> simulate(Strategy& strategy, int threads, int steps) {
  std::vector<int> left(static_cast<std::size_t>(threads), steps);
  std::vector<int> picks;
  strategy.begin_schedule(threads);
  int current = -1;
  for (;;) {
    std::vector<int> enabled;
    for (int t = 0; t < threads; ++t) {
      if (left[static_cast<std::size_t>(t)] > 0) enabled.push_back(t);
    }
    if (enabled.empty()) break;
    current = strategy.pick(enabled, current);
    picks.push_back(current);
    --left[static_cast<std::size_t>(current)];
  }
  strategy.end_schedule();
  return picks;
}

TEST(SeededRandomTest, IsDeterministicAndInRange) {
  SeededRandom a(123);
  SeededRandom b(123);
  SeededRandom c(124);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const int x = a.below(7);
    EXPECT_EQ(x, b.below(7));
    EXPECT_GE(x, 0);
    EXPECT_LT(x, 7);
    differs = differs || x != c.below(7);
  }
  EXPECT_TRUE(differs);
  // Fixed values: the generator must not change between versions, or saved
  // seeds would stop reproducing their schedules.
  SeededRandom fixed(0);
  EXPECT_EQ(fixed.next(), 0xE220A8397B1DCDAFULL);
}

TEST(RandomStrategyTest, SameSeedSameSchedules) {
  RandomStrategy a(99);
  RandomStrategy b(99);
  RandomStrategy c(100);
  std::set<std::vector<int>> distinct;
  bool differs = false;
  for (int schedule = 0; schedule < 20; ++schedule) {
    const std::vector<int> picks = simulate(a, 3, 5);
    EXPECT_EQ(picks, simulate(b, 3, 5));
    differs = differs || picks != simulate(c, 3, 5);
    distinct.insert(picks);
  }
  EXPECT_TRUE(differs);
  EXPECT_GT(distinct.size(), 10u);  // a walk, not one schedule repeated
}

TEST(PctStrategyTest, SameSeedSameSchedules) {
  PctStrategy a(7, 3);
  PctStrategy b(7, 3);
  for (int schedule = 0; schedule < 20; ++schedule) {
    EXPECT_EQ(simulate(a, 3, 6), simulate(b, 3, 6));
  }
  EXPECT_EQ(a.step_estimate(), 64);  // 18 steps seen: the estimate stays
}

TEST(PctStrategyTest, DepthOneRunsEachThreadToItsEnd) {
  // No change points: the highest-priority thread runs until it is done.
  PctStrategy pct(5, 1);
  std::set<std::vector<int>> orders;
  for (int schedule = 0; schedule < 30; ++schedule) {
    const std::vector<int> picks = simulate(pct, 3, 4);
    for (std::size_t i = 1; i < picks.size(); ++i) {
      if (i % 4 != 0) EXPECT_EQ(picks[i], picks[i - 1]) << "at " << i;
    }
    orders.insert(picks);
  }
  EXPECT_EQ(orders.size(), 6u);  // every priority order shows up
}

TEST(PctStrategyTest, ChangePointsPreemptAndTheEstimateIsLearned) {
  PctStrategy pct(11, 3, /*initial_step_estimate=*/4);
  int preempting_schedules = 0;
  for (int schedule = 0; schedule < 50; ++schedule) {
    const std::vector<int> picks = simulate(pct, 2, 10);
    int switches = 0;
    for (std::size_t i = 1; i < picks.size(); ++i) {
      switches += picks[i] != picks[i - 1];
    }
    // 2 change points: at most 2 preemptions plus the switch at a thread end.
    EXPECT_LE(switches, 3);
    preempting_schedules += switches > 1;
  }
  EXPECT_GT(preempting_schedules, 0);
  EXPECT_EQ(pct.step_estimate(), 20);
}

// Numbered schedules: schedule i is the same whatever ran before it, in
// which order and on which strategy object; that is what lets a search run
// them on several workers or machines (controlled_runner.h).
TEST(NumberedScheduleTest, ScheduleIDependsOnTheSeedAndIAlone) {
  for (const char* name : {"random", "pct"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<Strategy> in_order = make_strategy(name, 5, 3, 0);
    ASSERT_TRUE(in_order->numbered());
    std::vector<std::vector<int>> forwards;
    for (std::uint64_t i = 0; i < 12; ++i) {
      in_order->number_schedule(i, 30);
      forwards.push_back(simulate(*in_order, 3, 5));
    }
    std::unique_ptr<Strategy> backwards = make_strategy(name, 5, 3, 0);
    for (std::uint64_t i = 12; i-- > 0;) {
      backwards->number_schedule(i, 30);
      EXPECT_EQ(simulate(*backwards, 3, 5), forwards[i]) << "schedule " << i;
    }
    std::unique_ptr<Strategy> other_seed = make_strategy(name, 6, 3, 0);
    std::set<std::vector<int>> distinct(forwards.begin(), forwards.end());
    bool differs = false;
    for (std::uint64_t i = 0; i < 12; ++i) {
      other_seed->number_schedule(i, 30);
      differs = differs || simulate(*other_seed, 3, 5) != forwards[i];
    }
    EXPECT_TRUE(differs);
    EXPECT_GT(distinct.size(), 4u);
  }
}

TEST(NumberedScheduleTest, PctTakesItsEstimateFromTheCalibration) {
  PctStrategy pct(3, 3);
  EXPECT_TRUE(pct.needs_calibration());
  pct.number_schedule(0, 0);
  simulate(pct, 2, 100);
  EXPECT_EQ(pct.steps_taken(), 200);
  EXPECT_EQ(pct.step_estimate(), 64);  // numbered: not learned by itself
  pct.number_schedule(1, pct.steps_taken());
  EXPECT_EQ(pct.step_estimate(), 200);
  pct.number_schedule(2, 10);
  EXPECT_EQ(pct.step_estimate(), 10);  // a short run: change points within it
  pct.number_schedule(3, 0);
  EXPECT_EQ(pct.step_estimate(), 64);  // no calibration yet: the initial one
  EXPECT_FALSE(RandomStrategy(1).needs_calibration());
  EXPECT_FALSE(DfsStrategy(2).numbered());
  EXPECT_FALSE(PlainDfsStrategy(2).numbered());
}

TEST(PctStrategyTest, RejectsDepthZero) {
  EXPECT_THROW(PctStrategy(1, 0), std::invalid_argument);
}

TEST(ReplayStrategyTest, FollowsDecisionsThenFallsBack) {
  ReplayStrategy replay({2, 0});
  replay.begin_schedule(3);
  EXPECT_EQ(replay.pick({0, 1, 2}, -1), 2);
  EXPECT_EQ(replay.pick({0, 1, 2}, 2), 0);
  EXPECT_EQ(replay.pick({0, 1, 2}, 0), 0);  // out of decisions: continue
  EXPECT_EQ(replay.pick({1, 2}, 0), 1);     // current gone: lowest enabled
  EXPECT_EQ(replay.decisions_followed(), 2);
  EXPECT_FALSE(replay.end_schedule());
}

TEST(ReplayStrategyTest, StrictRejectsImpossibleDecisions) {
  ReplayStrategy replay({1, 3});
  replay.begin_schedule(2);
  EXPECT_EQ(replay.pick({0, 1}, -1), 1);
  try {
    replay.pick({0}, 1);
    FAIL() << "expected ScheduleError";
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(),
                 "replay: step 1 decides thread 3, which does not exist (the "
                 "program has 2 threads); enabled threads: {0}");
  }
  ReplayStrategy negative({-1});
  negative.begin_schedule(2);
  EXPECT_THROW(negative.pick({0, 1}, -1), ScheduleError);
}

TEST(ReplayStrategyTest, LenientFallsBackAndSaysSo) {
  ReplayStrategy replay({1, 1}, ReplayMode::kLenient);
  replay.begin_schedule(2);
  EXPECT_EQ(replay.pick({0, 1}, -1), 1);
  EXPECT_FALSE(replay.diverged());
  EXPECT_EQ(replay.pick({0}, 1), 0);
  EXPECT_TRUE(replay.diverged());
}

TEST(PlainDfsStrategyTest, ComplainsWhenTheProgramIsNotDeterministic) {
  PlainDfsStrategy dfs(1);
  dfs.begin_schedule(2);
  dfs.pick({0, 1}, -1);
  dfs.pick({0, 1}, 0);
  EXPECT_TRUE(dfs.end_schedule());
  dfs.begin_schedule(2);
  EXPECT_THROW(dfs.pick({1}, -1), ScheduleError);
}

TEST(PlainDfsStrategyTest, RejectsANegativeBound) {
  EXPECT_THROW(PlainDfsStrategy(-1), std::invalid_argument);
}

TEST(MakeStrategyTest, MakesEachStrategyByName) {
  EXPECT_EQ(make_strategy("random", 1)->name(), "random");
  EXPECT_EQ(make_strategy("pct", 1, 3)->name(), "pct");
  EXPECT_EQ(make_strategy("dfs", 1, 3, 0)->name(), "dfs");
  std::unique_ptr<Strategy> replay = make_strategy("replay", 0, 3, 2, {1, 0});
  EXPECT_EQ(replay->name(), "replay");
  replay->begin_schedule(2);
  EXPECT_EQ(replay->pick({0, 1}, -1), 1);
}

TEST(MakeStrategyTest, RejectsUnknownNamesAndBadParameters) {
  EXPECT_THROW(make_strategy("fifo", 1), std::invalid_argument);
  EXPECT_THROW(make_strategy("", 1), std::invalid_argument);
  EXPECT_THROW(make_strategy("pct", 1, 0), std::invalid_argument);
  EXPECT_THROW(make_strategy("dfs", 1, 3, -2), std::invalid_argument);
}

}  // namespace
}  // namespace racelab::sched

namespace racelab::sched {
namespace {

// A fake program for pick_value: one thread whose step loads twice, from 3
// and then 2 stores, then a second thread's step. Returns the values read.
std::vector<int> load_twice(Strategy& strategy) {
  strategy.begin_schedule(2);
  std::vector<int> read;
  int current = strategy.pick({0, 1}, -1);
  if (current == 0) {
    read.push_back(strategy.pick_value(3));
    read.push_back(strategy.pick_value(2));
    strategy.step_finished(
        0, {PointAccess{ObjectKind::kAtomic, &read, AccessKind::kRead}});
    strategy.pick({1}, 0);
  } else {
    strategy.step_finished(1, {PointAccess::none()});
    current = strategy.pick({0}, 1);
    read.push_back(strategy.pick_value(3));
    read.push_back(strategy.pick_value(2));
  }
  return read;
}

// Every store a load may read is a branch of its own, the latest first, for
// both searches, and the search then ends.
TEST(PickValueTest, SearchesTryEveryStoreTheLatestFirst) {
  for (const char* name : {"dfs", "plain-dfs"}) {
    std::unique_ptr<Strategy> strategy =
        make_strategy(name, 1, 3, std::string_view(name) == "dfs" ? -1 : 2);
    std::set<std::vector<int>> seen;
    std::vector<int> first;
    bool more = true;
    int schedules = 0;
    while (more && schedules < 100) {
      const std::vector<int> read = load_twice(*strategy);
      if (schedules == 0) first = read;
      seen.insert(read);
      more = strategy->end_schedule();
      ++schedules;
    }
    EXPECT_FALSE(more) << name;
    EXPECT_EQ(first, (std::vector<int>{2, 1})) << name;
    EXPECT_EQ(seen.size(), 6u) << name;  // 3 x 2 stores, whatever the order
  }
}

TEST(PickValueTest, RandomAndPctPickEveryStoreAndReplayFollows) {
  for (const char* name : {"random", "pct"}) {
    std::unique_ptr<Strategy> strategy = make_strategy(name, 7);
    std::set<int> picked;
    for (int i = 0; i < 200; ++i) {
      const int store = strategy->pick_value(4);
      ASSERT_GE(store, 0);
      ASSERT_LT(store, 4);
      picked.insert(store);
    }
    EXPECT_EQ(picked.size(), 4u) << name;
  }
  ReplayStrategy replay({1, 0}, ReplayMode::kStrict);
  replay.begin_schedule(1);
  EXPECT_EQ(replay.pick_value(3), 1);
  EXPECT_EQ(replay.pick_value(2), 0);
  EXPECT_EQ(replay.pick_value(2), 1);  // out of decisions: the latest
  ReplayStrategy impossible({5}, ReplayMode::kStrict);
  impossible.begin_schedule(1);
  EXPECT_THROW(impossible.pick_value(3), ScheduleError);
}

}  // namespace
}  // namespace racelab::sched
