// A stress run that stands still is a hang only with evidence: every thread
// asleep for the limit, or the limit's worth of CPU time spent; runnable
// threads that do not get the CPU are starved, never stuck.
#include "stall_evidence.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace racelab {
namespace {

constexpr int kTickMs = 100;
constexpr int kLimitMs = 5000;
constexpr std::int64_t kMs = 1'000'000;

TEST(StallEvidence, RunnableThreadsWithoutCpuAreStarved) {
  StallEvidence evidence;
  evidence.restart(1000 * kMs);
  // A whole limit of looks, a thread awake at each, almost no CPU used.
  for (int i = 0; i < 10 * kLimitMs / kTickMs; ++i) evidence.look(true);
  EXPECT_EQ(evidence.judge(1000 * kMs + 40 * kMs, kLimitMs, kTickMs),
            Stall::kStarved);
}

TEST(StallEvidence, EveryThreadAsleepForTheLimitIsBlocked) {
  StallEvidence evidence;
  evidence.restart(0);
  for (int i = 0; i < kLimitMs / kTickMs - 1; ++i) evidence.look(false);
  EXPECT_EQ(evidence.judge(0, kLimitMs, kTickMs), Stall::kStarved);
  evidence.look(false);
  EXPECT_EQ(evidence.judge(0, kLimitMs, kTickMs), Stall::kBlocked);
}

TEST(StallEvidence, ALimitOfCpuWithoutProgressIsSpinning) {
  StallEvidence evidence;
  evidence.restart(7 * kMs);
  evidence.look(true);
  EXPECT_EQ(evidence.judge(7 * kMs + kLimitMs * kMs - 1, kLimitMs, kTickMs),
            Stall::kStarved);
  EXPECT_EQ(evidence.judge(7 * kMs + kLimitMs * kMs, kLimitMs, kTickMs),
            Stall::kSpinning);
}

TEST(StallEvidence, ProgressStartsTheEvidenceAgain) {
  StallEvidence evidence;
  evidence.restart(0);
  for (int i = 0; i < kLimitMs / kTickMs; ++i) evidence.look(false);
  evidence.restart(kLimitMs * kMs);
  EXPECT_EQ(evidence.judge(kLimitMs * kMs, kLimitMs, kTickMs), Stall::kStarved);
}

pid_t own_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

TEST(StallEvidence, ASpinningThreadIsAwake) {
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  // A spinning thread is 'R' whether it runs or waits for a core.
  bool awake = true;
  for (int i = 0; i < 20 && awake; ++i) awake = some_thread_awake(own_tid());
  stop = true;
  spinner.join();
  EXPECT_TRUE(awake);
}

TEST(StallEvidence, ThreadsBlockedInAWaitAreAsleep) {
  std::mutex mu;
  std::condition_variable cv;
  bool go = false;
  std::atomic<int> waiting{0};
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mu);
    waiting = 1;
    cv.wait(lock, [&] { return go; });
  });
  while (waiting.load() == 0) std::this_thread::yield();
  // The waiter is asleep once it is in the kernel; the sanitizer's own
  // background thread wakes now and then, so some look finds them all
  // asleep (bounded: the test does not wait on time).
  bool all_asleep = false;
  for (int i = 0; i < 100000 && !all_asleep; ++i) {
    all_asleep = !some_thread_awake(own_tid());
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    go = true;
  }
  cv.notify_one();
  waiter.join();
  EXPECT_TRUE(all_asleep);
}

}  // namespace
}  // namespace racelab
