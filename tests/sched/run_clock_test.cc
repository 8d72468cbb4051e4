// Tests of the run's clocks (docs/controlled-mode.md, "Time";
// harness/core/src/sched/run_clock.h): a timeout is seen only at its
// deadline, a sleep returns with the clocks its length later and costs no
// real time, the times a run reads are decided by its decisions (a replay
// reads the same), and outside a run the clocks are the real ones.
#include <errno.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/raw_syscall.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;
using Status = RunResult::Status;
using namespace std::chrono_literals;

long long nanos(const timespec& time) {
  return time.tv_sec * 1'000'000'000LL + time.tv_nsec;
}
long long now_ns(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return nanos(now);
}
// The kernel's clock, past every interposer.
long long kernel_ns(clockid_t clock) {
  timespec now{};
  racelab::raw_syscall(SYS_clock_gettime, clock, &now);
  return nanos(now);
}

// Under dfs, a semaphore wait with a deadline 50 ms away either takes the
// post or times out; where it times out, every clock the program reads is
// past the deadline, and both outcomes are explored.
TEST(RunClockTest, AWaitTimesOutOnlyAtItsDeadline) {
  sem_t sem;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  int result = 0;
  long long late = 0;  // how far past the deadline the clock read
  Threads threads = {[&] {
                       timespec at{};
                       clock_gettime(CLOCK_REALTIME, &at);
                       const long long deadline = nanos(at) + 50'000'000;
                       at = {static_cast<time_t>(deadline / 1'000'000'000),
                             static_cast<long>(deadline % 1'000'000'000)};
                       result = sem_timedwait(&sem, &at) == 0 ? 0 : errno;
                       late = now_ns(CLOCK_REALTIME) - deadline;
                     },
                     [&] { sem_post(&sem); }};
  ControlledScheduler scheduler({.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(10);
  std::set<int> results;
  for (int schedule = 0; schedule < 100; ++schedule) {
    const RunResult run = scheduler.run(threads, dfs);
    EXPECT_EQ(run.status, Status::kCompleted);
    results.insert(result);
    if (result == ETIMEDOUT) EXPECT_GE(late, 0);
    while (sem_trywait(&sem) == 0) {
    }
    if (!run.more_schedules) break;
  }
  EXPECT_EQ(results, (std::set<int>{0, ETIMEDOUT}));
  sem_destroy(&sem);
}

// A condition-variable wait_for that nobody notifies reports a timeout, and
// the steady clock agrees (libstdc++ asks the clock after the wait).
TEST(RunClockTest, WaitForReportsATimeoutTheClockAgreesWith) {
  std::mutex mu;
  std::condition_variable cv;
  std::cv_status status = std::cv_status::no_timeout;
  std::chrono::steady_clock::duration took{};
  Threads threads = {[&] {
    std::unique_lock lock(mu);
    const auto start = std::chrono::steady_clock::now();
    status = cv.wait_for(lock, 40ms);
    took = std::chrono::steady_clock::now() - start;
  }};
  ControlledScheduler scheduler({.substrate = Substrate::kOsThreads});
  RandomStrategy random(1);
  const RunResult run = scheduler.run(threads, random);
  EXPECT_EQ(run.status, Status::kCompleted);
  EXPECT_EQ(status, std::cv_status::timeout);
  EXPECT_GE(took, 40ms);
}

// Sleeps return with every clock their length later: a near one (20 ms) and
// a far one (an hour), which costs no hour of real time. The CPU-time clock
// is not the run's.
TEST(RunClockTest, SleepsPassTheirLengthOnTheClocksAndNoRealTime) {
  long long near_took = 0, far_took = 0, realtime_took = 0;
  const long long kernel_before = kernel_ns(CLOCK_MONOTONIC);
  Threads threads = {[&] {
                       const long long start = now_ns(CLOCK_MONOTONIC);
                       const long long wall = now_ns(CLOCK_REALTIME);
                       std::this_thread::sleep_for(20ms);
                       near_took = now_ns(CLOCK_MONOTONIC) - start;
                       std::this_thread::sleep_for(1h);
                       far_took = now_ns(CLOCK_MONOTONIC) - start;
                       realtime_took = now_ns(CLOCK_REALTIME) - wall;
                     },
                     [] {}};
  ControlledScheduler scheduler({.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  const RunResult run = scheduler.run(threads, random);
  EXPECT_EQ(run.status, Status::kCompleted);
  EXPECT_GE(near_took, 20'000'000);
  EXPECT_GE(far_took, 3600'000'000'000LL + 20'000'000);
  EXPECT_GE(realtime_took, far_took);
  EXPECT_LT(kernel_ns(CLOCK_MONOTONIC) - kernel_before, 3600'000'000'000LL);
  // Outside the run, the clocks are the kernel's again.
  EXPECT_LT(now_ns(CLOCK_MONOTONIC) - kernel_ns(CLOCK_MONOTONIC),
            3600'000'000'000LL);
}

// The times a run reads are decided by its decisions: threads that wait
// with deadlines and read the clock read the same elapsed times when the
// run's decisions are replayed.
TEST(RunClockTest, AReplayReadsTheSameTimes) {
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false;
  std::vector<long long> reads;  // under mu
  auto reader = [&](int id) {
    return [&, id] {
      std::unique_lock lock(mu);
      const long long start = now_ns(CLOCK_MONOTONIC);
      cv.wait_for(lock, std::chrono::milliseconds(10 * (id + 1)),
                  [&] { return ready; });
      reads.push_back(now_ns(CLOCK_MONOTONIC) - start);
      ready = true;
      cv.notify_all();
    };
  };
  Threads threads = {reader(0), reader(1), reader(2)};
  ControlledScheduler scheduler({.substrate = Substrate::kFibers});
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    RandomStrategy random(seed);
    reads.clear();
    ready = false;
    const RunResult first = scheduler.run(threads, random);
    ASSERT_EQ(first.status, Status::kCompleted);
    const std::vector<long long> seen = reads;
    ReplayStrategy replay(first.decisions);
    reads.clear();
    ready = false;
    const RunResult again = scheduler.run(threads, replay);
    ASSERT_EQ(again.status, Status::kCompleted);
    EXPECT_EQ(again.decisions, first.decisions);
    EXPECT_EQ(reads, seen) << "seed " << seed;
  }
}

// Deadlines pass in their order: a wait of 10 ms times out before a sleep
// of 250 ms that began with it ends, in every schedule dfs explores.
TEST(RunClockTest, AShortWaitTimesOutBeforeALongerSleepEnds) {
  sem_t never;
  ASSERT_EQ(sem_init(&never, 0, 0), 0);
  std::atomic<bool> slept{false};
  bool slept_first = false;
  Threads threads = {[&] {
                       std::this_thread::sleep_for(250ms);
                       slept = true;
                     },
                     [&] {
                       timespec at{};
                       clock_gettime(CLOCK_REALTIME, &at);
                       at.tv_nsec += 10'000'000;
                       if (at.tv_nsec >= 1'000'000'000) {
                         at.tv_nsec -= 1'000'000'000;
                         ++at.tv_sec;
                       }
                       if (sem_timedwait(&never, &at) != 0) {
                         slept_first = slept.load();
                       }
                     }};
  ControlledScheduler scheduler({.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(10);
  int schedules = 0;
  for (; schedules < 1000; ++schedules) {
    const RunResult run = scheduler.run(threads, dfs);
    EXPECT_EQ(run.status, Status::kCompleted);
    EXPECT_FALSE(slept_first) << "schedule " << schedules;
    slept = false;
    slept_first = false;
    if (!run.more_schedules) break;
  }
  EXPECT_GT(schedules, 0);
  sem_destroy(&never);
}

// A thread that can run is not passed over for longer than the lateness
// bound (50 ms): main's sleep of 300 ms ends only after the worker, ready
// all along, has run; a sleep of 1 ms may end before it (while the worker
// has given way at its yield).
TEST(RunClockTest, AThreadThatCanRunIsNotPassedOverForLong) {
  std::atomic<bool> worked{false};
  bool short_sleep_first = false;
  bool long_sleep_first = false;
  Threads threads = {[&] {
                       std::this_thread::sleep_for(1ms);
                       short_sleep_first = short_sleep_first || !worked;
                       std::this_thread::sleep_for(300ms);
                       long_sleep_first = long_sleep_first || !worked;
                     },
                     [&] {
                       sched_yield();  // a point in every build
                       worked = true;
                     }};
  ControlledScheduler scheduler({.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(10);
  bool any_short_first = false;
  for (int schedule = 0; schedule < 1000; ++schedule) {
    const RunResult run = scheduler.run(threads, dfs);
    EXPECT_EQ(run.status, Status::kCompleted);
    EXPECT_FALSE(long_sleep_first) << "schedule " << schedule;
    any_short_first = any_short_first || short_sleep_first;
    worked = false;
    short_sleep_first = false;
    long_sleep_first = false;
    if (!run.more_schedules) break;
  }
  EXPECT_TRUE(any_short_first);
}

}  // namespace
}  // namespace racelab::sched
