// Tests of plain dfs (PlainDfsStrategy, `--strategy plain-dfs`) under the
// controlled scheduler: how many schedules each preemption bound explores
// and that every interleaving is enumerated once.
#include <gtest/gtest.h>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "stepping_threads.h"

namespace racelab::sched {
namespace {

using scheduler_test::Exploration;
using scheduler_test::explore_dfs;
using scheduler_test::operations;
using scheduler_test::stepping_threads;
using scheduler_test::Threads;

// dfs over 2 threads of 2 steps ("a1 . a2" and "b1 . b2", a yield between):
// the 6 interleavings need 0 (a1 a2 b1 b2, b1 b2 a1 a2), 1 (a1 b1 b2 a2,
// b1 a1 a2 b2) or 2 (a1 b1 a2 b2, b1 a1 b2 a2) preemptions. Switching at the
// end of a thread is not a preemption.
TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundZero) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 0);
  EXPECT_EQ(exploration.schedules, 2);
  EXPECT_EQ(exploration.interleavings,
            (std::set<std::string>{"a1 a2 b1 b2", "b1 b2 a1 a2"}));
  EXPECT_EQ(exploration.max_preemptions, 0);
}

TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundOne) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 1);
  EXPECT_EQ(exploration.schedules, 4);
  EXPECT_EQ(exploration.interleavings,
            (std::set<std::string>{"a1 a2 b1 b2", "b1 b2 a1 a2", "a1 b1 b2 a2",
                                   "b1 a1 a2 b2"}));
  EXPECT_EQ(exploration.max_preemptions, 1);
}

TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundTwo) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 2);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
  EXPECT_EQ(exploration.max_preemptions, 2);
  // No more schedules exist with a larger bound.
  EXPECT_EQ(explore_dfs(stepping_threads(2, 2), 5).schedules, 6);
}

// 2 threads of 3 steps, bound 1: per first thread, no preemption or one at
// either of its 2 yields (the other thread then runs to its end): 2 * 3.
TEST(DfsTest, TwoThreadsOfThreeStepsWithBoundOne) {
  Exploration exploration = explore_dfs(stepping_threads(2, 3), 1);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
}

// Without a binding bound dfs enumerates every interleaving exactly once:
// 6!/(3!3!) = 20 and 6!/(2!2!2!) = 90.
TEST(DfsTest, UnboundedSearchEnumeratesEveryInterleavingOnce) {
  Exploration two = explore_dfs(stepping_threads(2, 3), 100);
  EXPECT_EQ(two.schedules, 20);
  EXPECT_EQ(two.interleavings.size(), 20u);
  Exploration three = explore_dfs(stepping_threads(3, 2), 100);
  EXPECT_EQ(three.schedules, 90);
  EXPECT_EQ(three.interleavings.size(), 90u);
}

// Threads without scheduling points only switch when they finish, which is
// never a preemption: bound 0 already gives all 3! orders.
TEST(DfsTest, SwitchesAtThreadEndsAreFree) {
  Exploration exploration = explore_dfs(stepping_threads(3, 1), 0);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
}

TEST(DfsTest, RestartsAfterExhaustion) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(0);
  const Threads threads = stepping_threads(2, 2);
  EXPECT_TRUE(scheduler.run(threads, dfs).more_schedules);
  EXPECT_FALSE(scheduler.run(threads, dfs).more_schedules);
  EXPECT_EQ(operations(scheduler.run(threads, dfs)), "a1 a2 b1 b2");
}

}  // namespace
}  // namespace racelab::sched
