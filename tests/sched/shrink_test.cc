// Tests of schedule shrinking on an atomicity violation found by a random
// walk with many preemptions.
#include "racelab/sched/shrink.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "racelab/sched/scheduler.h"
#include "racelab/sync.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;

// Thread 0 writes 1 and later checks it still reads 1; threads 1 and 2 write
// 2 at some step. The check fails when a write lands between thread 0's two
// steps: one preemption (at thread 0's yield) is enough.
struct AtomicityViolation {
  racelab::Mutex mu{"value.mu"};
  int value = 0;  // guarded by mu: the bug is atomicity, not a data race
  bool failed = false;

  Threads threads() {
    Threads out;
    out.push_back([this] {
      {
        racelab::MutexLock lock(mu);
        value = 1;
      }
      racelab::yield_point("between");
      racelab::MutexLock lock(mu);
      if (value != 1) failed = true;
    });
    for (int t = 1; t <= 2; ++t) {
      out.push_back([this] {
        for (int i = 0; i < 3; ++i) racelab::yield_point("busy");
        racelab::MutexLock lock(mu);
        value = 2;
      });
    }
    return out;
  }

  // Reruns the program under `strategy`; true when the check failed.
  bool run(ControlledScheduler& scheduler, Strategy& strategy) {
    value = 0;
    failed = false;
    const Threads program = threads();
    const RunResult result = scheduler.run(program, strategy);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    return failed;
  }
};

TEST(ShrinkTest, ReducesAFailingRandomScheduleToOnePreemption) {
  ControlledScheduler scheduler;
  AtomicityViolation program;
  const Threads threads = program.threads();

  // A failing schedule with many preemptions, from a random walk.
  RandomStrategy random(31);
  std::vector<int> failing;
  int failing_preemptions = 0;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    program.value = 0;
    program.failed = false;
    const RunResult result = scheduler.run(threads, random);
    if (program.failed && result.preemptions >= 4) {
      failing = result.decisions;
      failing_preemptions = result.preemptions;
    }
  }
  ASSERT_FALSE(failing.empty()) << "no failing schedule with 4+ preemptions";

  int calls = 0;
  const ShrinkResult shrunk = shrink_schedule(failing, [&](Strategy& replay) {
    ++calls;
    return program.run(scheduler, replay);
  });
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_EQ(shrunk.preemptions, 1);
  EXPECT_LT(shrunk.preemptions, failing_preemptions);
  EXPECT_EQ(shrunk.runs, calls);
  EXPECT_LT(shrunk.decisions.size(), failing.size());

  // The shrunk schedule still fails, under a strict replay, with the
  // preemptions it claims.
  ReplayStrategy replay(shrunk.decisions);
  program.value = 0;
  program.failed = false;
  const RunResult result = scheduler.run(threads, replay);
  EXPECT_TRUE(program.failed);
  EXPECT_EQ(result.preemptions, 1);
  EXPECT_FALSE(replay.diverged());
}

TEST(ShrinkTest, ReportsASchedulethatDoesNotReproduce) {
  ControlledScheduler scheduler;
  AtomicityViolation program;
  const ShrinkResult shrunk = shrink_schedule({0, 0, 0}, [&](Strategy& replay) {
    return program.run(scheduler, replay);
  });
  EXPECT_FALSE(shrunk.reproduced);
  EXPECT_EQ(shrunk.runs, 1);
  EXPECT_EQ(shrunk.decisions, (std::vector<int>{0, 0, 0}));
}

TEST(ShrinkTest, StopsAtTheRunBudget) {
  ControlledScheduler scheduler;
  AtomicityViolation program;
  const Threads threads = program.threads();
  RandomStrategy random(5);
  std::vector<int> failing;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    program.value = 0;
    program.failed = false;
    const RunResult result = scheduler.run(threads, random);
    if (program.failed && result.preemptions >= 3) failing = result.decisions;
  }
  ASSERT_FALSE(failing.empty());
  const ShrinkResult shrunk = shrink_schedule(
      failing, [&](Strategy& replay) { return program.run(scheduler, replay); },
      /*max_runs=*/2);
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_LE(shrunk.runs, 2);
}

}  // namespace
}  // namespace racelab::sched
