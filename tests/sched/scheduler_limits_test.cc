// Tests of racelab::sched::ControlledScheduler's limits and fairness: the
// step and length limits, polls and sleeps that give way, fibers reused
// across runs, and the calls refused or ignored outside a run.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/sync.h"
#include "stepping_threads.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;
using Status = RunResult::Status;

using scheduler_test::read_then_write;
using scheduler_test::stepping_threads;

// The step limit counts decisions without progress: two threads that take
// a lock in turn 2,000 times each make ten times more decisions than it
// allows, and finish.
TEST(SchedulerTest, StepLimitLetsARunThatKeepsMakingProgressFinish) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 500, .substrate = Substrate::kFibers});
  racelab::Mutex mu("counter");
  int count = 0;
  auto increments = [&] {
    for (int i = 0; i < 2000; ++i) {
      racelab::MutexLock hold(mu);
      ++count;
    }
  };
  PctStrategy pct(3, 7);
  RunResult result = scheduler.run({increments, increments}, pct);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_GT(result.decisions.size(), 5000u);
  EXPECT_EQ(count, 4000);
}

// max_total_steps ends a run that keeps making progress forever, as a
// length limit, not a livelock.
TEST(SchedulerTest, LengthLimitEndsAnEndlessRunThatMakesProgress) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 100,
                       .max_total_steps = 3000,
                       .substrate = Substrate::kFibers});
  racelab::Mutex mu("counter");
  int count = 0;
  auto endless = [&] {
    for (;;) {
      racelab::MutexLock hold(mu);
      ++count;
    }
  };
  RandomStrategy random(5);
  RunResult result = scheduler.run({endless, endless}, random);
  EXPECT_EQ(result.status, Status::kLengthLimit);
  EXPECT_EQ(result.decisions.size(), 3000u);
  EXPECT_EQ(result.limit, 3000);
  EXPECT_NE(limit_summary(result.status, result.limit).find("not a livelock"),
            std::string::npos);
}

// Always runs the lowest-numbered thread it may: the poller below, as a
// strategy that favours it (pct drawing it the highest priority) would.
class LowestThreadFirst : public racelab::sched::Strategy {
 public:
  std::string_view name() const override { return "lowest-first"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int) override {
    return enabled.front();
  }
  bool end_schedule() override { return false; }
};

// A poll under a lock (lock, look, unlock) is a spin, not progress, while
// another thread could take the lock: the poller gives way at the fairness
// bound and the setter runs, even under a strategy that always favours the
// poller. Taking its own lock again counted as progress before, and such a
// run went on to the length limit.
TEST(SchedulerTest, APollUnderALockGivesWayToTheThreadItWaitsFor) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 5000,
                       .max_total_steps = 200000,
                       .substrate = Substrate::kFibers});
  racelab::Mutex mu("flag");
  bool flag = false;
  Threads threads = {[&] {
                       for (bool seen = false; !seen;) {
                         racelab::MutexLock hold(mu);
                         seen = flag;
                       }
                     },
                     [&] {
                       racelab::MutexLock hold(mu);
                       flag = true;
                     }};
  LowestThreadFirst favours_the_poller;
  RunResult result = scheduler.run(threads, favours_the_poller);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_LT(result.decisions.size(), 1000u);
}

// A thread alone takes and releases its lock as long as it likes: with no
// other thread to take it, each taking is progress, not a livelock.
TEST(SchedulerTest, ALoneThreadRetakingItsLockIsNoLivelock) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 100, .substrate = Substrate::kFibers});
  racelab::Mutex mu("counter");
  int count = 0;
  RandomStrategy random(3);
  RunResult result = scheduler.run({[&] {
                                     for (int i = 0; i < 1000; ++i) {
                                       racelab::MutexLock hold(mu);
                                       ++count;
                                     }
                                   }},
                                   random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(count, 1000);
}

// A poll that sleeps gives way even to a thread that has been spinning
// itself (past the fairness bound): thread 1 looks at `other` 200 times
// before it sets `flag`, and thread 0's sleeping poll never starves it,
// whatever priorities pct draws.
TEST(SchedulerTest, ASleepingPollGivesWayToASpinningThread) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 5000, .substrate = Substrate::kFibers});
  std::atomic<int> flag{0};
  std::atomic<int> other{0};
  Threads threads = {
      [&] {
        while (flag.load() == 0) usleep(10);
      },
      [&] {
        int seen = 0;
        for (int i = 0; i < 200; ++i) seen += other.load();
        flag.store(seen + 1);
      },
  };
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    PctStrategy pct(seed, 3);
    flag.store(0);
    const RunResult result = scheduler.run(threads, pct);
    EXPECT_EQ(result.status, Status::kCompleted) << "seed " << seed;
  }
}

// A poll that never yields gives way to a sleeping thread: thread 0 loads
// `done` without a yield while thread 1 sleeps 50 times before it sets it.
// A sleep gives way and so puts the sleeper past the fairness bound too; the
// poller must still give way to it once per round, under a strategy that
// always favours the poller. Before rounds, both past the bound, nobody gave
// way and the poller ran to the step limit.
TEST(SchedulerTest, APollGivesWayToASleepingThread) {
  SKIP_UNLESS_ATOMICS_ARE_POINTS();
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 5000,
                       .max_total_steps = 200000,
                       .substrate = Substrate::kFibers});
  std::atomic<bool> done{false};
  Threads threads = {[&] {
                       while (!done.load(std::memory_order_acquire)) {
                       }
                     },
                     [&] {
                       for (int i = 0; i < 50; ++i) usleep(1000);
                       done.store(true, std::memory_order_release);
                     }};
  LowestThreadFirst favours_the_poller;
  RunResult result = scheduler.run(threads, favours_the_poller);
  EXPECT_EQ(result.status, Status::kCompleted);
}

// A yield gives way to every other thread that can run, not only to the
// next one: threads 0 and 1 poll `flag` with a yield while thread 2 sleeps
// once and then sets it. The sleep put thread 2 past the fairness bound,
// as the pollers' yields put them, so before rounds the two pollers gave
// way to each other only, and thread 2 never ran again under a strategy
// that favours the lowest thread (a thread pool's idle workers starving the
// thread that feeds them).
TEST(SchedulerTest, PollsThatYieldGiveWayToEveryThreadNotOnlyTheNext) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 5000,
                       .max_total_steps = 200000,
                       .substrate = Substrate::kFibers});
  std::atomic<bool> flag{false};
  auto poll = [&] {
    while (!flag.load()) sched_yield();
  };
  Threads threads = {poll, poll, [&] {
                       usleep(1);
                       flag.store(true);
                     }};
  LowestThreadFirst favours_the_pollers;
  RunResult result = scheduler.run(threads, favours_the_pollers);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_LT(result.decisions.size(), 1000u);
}

// Time passes at a sleep: a thread that sleeps many times in a row (as one
// waiting for a deadline it reads from the clock would) is no livelock,
// however many decisions its sleeps take.
TEST(SchedulerTest, AThreadThatKeepsSleepingIsNoLivelock) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 500, .substrate = Substrate::kFibers});
  RandomStrategy random(4);
  RunResult result = scheduler.run({[] {
                                      for (int i = 0; i < 3000; ++i) usleep(1);
                                    },
                                    [] { ControlledScheduler::note("done"); }},
                                   random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_GE(result.decisions.size(), 3000u);
}

// Two threads that each hold one lock and poll the other's with try_lock,
// backing off with a yield, forever: every thread that can run polls
// without progress, each given turns, so the state recurs: a livelock with
// that evidence. The first schedule has both take their own lock before
// either polls; under pct a schedule may instead let one take both and end.
TEST(SchedulerTest, TwoThreadsPollingEachOthersLockAreALivelock) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 2000, .substrate = Substrate::kFibers});
  int livelocks = 0;
  for (std::uint64_t seed = 0; seed <= 5; ++seed) {
    std::mutex a;
    std::mutex b;
    auto poll = [](std::mutex& mine, std::mutex& other) {
      mine.lock();
      while (!other.try_lock()) sched_yield();
      other.unlock();
      mine.unlock();
    };
    // Thread 0 to its lock, takes it; thread 1 to its lock, takes it.
    ReplayStrategy both_take_first({0, 0, 1, 1}, ReplayMode::kLenient);
    PctStrategy pct(seed, 3);
    Strategy& strategy = seed == 0 ? static_cast<Strategy&>(both_take_first)
                                   : static_cast<Strategy&>(pct);
    RunResult result =
        scheduler.run({[&] { poll(a, b); }, [&] { poll(b, a); }}, strategy);
    if (seed > 0 && result.status == Status::kCompleted) continue;
    ASSERT_EQ(result.status, Status::kStepLimit) << "seed " << seed;
    ++livelocks;
    EXPECT_EQ(result.livelock_evidence,
              RunResult::LivelockEvidence::kStateRecurs);
    const std::string summary =
        limit_summary(result.status, result.limit, result.livelock_report);
    EXPECT_NE(summary.find("every thread that can run (threads 0 and 1) "
                           "polled without progress"),
              std::string::npos)
        << summary;
  }
  EXPECT_GE(livelocks, 1);
}

// A long stretch without progress is not evidence by itself: with the
// fairness bound off and a strategy that always runs the poller, thread 1
// never gets a turn, never polls, and might still make progress, so the run
// is no livelock; it is cut at the length limit (inconclusive). The poll
// must not yield: a yield gives way to thread 1 even with the bound off.
TEST(SchedulerTest, AStretchWithoutProgressAloneIsNoLivelock) {
  SKIP_UNLESS_ATOMICS_ARE_POINTS();
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 500,
                       .max_total_steps = 3000,
                       .substrate = Substrate::kFibers,
                       .spin_bound = 0});
  std::atomic<bool> flag{false};
  Threads threads = {[&] {
                       while (!flag.load()) {
                       }
                     },
                     [&] { flag.store(true); }};
  LowestThreadFirst favours_the_poller;
  RunResult result = scheduler.run(threads, favours_the_poller);
  EXPECT_EQ(result.status, Status::kLengthLimit);
  EXPECT_EQ(result.livelock_evidence, RunResult::LivelockEvidence::kNone);
}

TEST(SchedulerTest, StepLimitStopsARunawayScheduleAndTheNextRunWorks) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 500, .substrate = Substrate::kFibers});
  Threads spinning = {
      [] {
        // A yield changes nothing: no progress (and a point in every build,
        // where an atomic load is one only under TSan).
        for (;;) sched_yield();
      },
      [] { ControlledScheduler::note("done"); },
  };
  RandomStrategy random(2);
  for (int i = 0; i < 3; ++i) {
    RunResult result = scheduler.run(spinning, random);
    EXPECT_EQ(result.status, Status::kStepLimit);
    // 500 decisions in a row without progress, after thread 1's end.
    EXPECT_GE(result.decisions.size(), 500u);
    EXPECT_LE(result.decisions.size(), 510u);
    EXPECT_EQ(result.limit, 500);
    EXPECT_EQ(to_string(result.status), "step limit");
    // Thread 1 finished: only thread 0 can run, and it polls.
    EXPECT_EQ(result.livelock_evidence,
              RunResult::LivelockEvidence::kNoThreadCanProgress);
    EXPECT_NE(result.livelock_report.find("only thread 0 can run"),
              std::string::npos)
        << result.livelock_report;
    RunResult normal = scheduler.run(stepping_threads(2, 3), random);
    EXPECT_EQ(normal.status, Status::kCompleted);
  }
}

TEST(SchedulerTest, FibersAreReusedAcrossManySchedulesAndDeadlocks) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(77);
  for (int i = 0; i < 200; ++i) {
    if (i % 10 == 0) {
      racelab::SharedMutex mu("state.mu");
      Threads threads = {[&] { read_then_write(mu); },
                         [] { racelab::yield_point("x"); }};
      EXPECT_EQ(scheduler.run(threads, random).status, Status::kDeadlock);
    } else {
      EXPECT_EQ(scheduler.run(stepping_threads(3, 3), random).status,
                Status::kCompleted);
    }
  }
}

TEST(SchedulerTest, NestedRunIsRefused) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  Threads threads = {[&] {
    RandomStrategy inner(2);
    scheduler.run({[] {}}, inner);
  }};
  RunResult result = scheduler.run(threads, random);
  ASSERT_EQ(result.thread_errors.size(), 1u);
  EXPECT_EQ(result.thread_errors[0],
            "thread 0 threw: ControlledScheduler::run called inside a "
            "controlled run");
}

// Outside a run, a note goes nowhere (no later run's trace holds it) and a
// yield point returns at once.
TEST(SchedulerTest, NoteOutsideARunIsIgnored) {
  ControlledScheduler::note("nobody listens");
  racelab::yield_point("stress mode: a no-op");
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(
      {[] { ControlledScheduler::note("inside the run"); }}, first_enabled);
  ASSERT_EQ(result.status, Status::kCompleted);
  bool inside = false;
  for (const TraceRow& row : result.trace.rows) {
    EXPECT_EQ(row.text.find("nobody listens"), std::string::npos);
    inside = inside || row.text == "inside the run";
  }
  EXPECT_TRUE(inside);
}

}  // namespace
}  // namespace racelab::sched
