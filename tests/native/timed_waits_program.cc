// A GoogleTest binary of timed-wait tests in the style of a widely used
// library's own synchronization tests: waits with timeouts and deadlines
// that measure how long they took against the program's clocks (with the
// same 5 ms of slop such tests allow in the other direction only), sleeps
// that measure themselves, and one test with a real data race. Run whole
// under `racelab explore --tests` by timed_waits_test.sh: every test but the
// racy one is clean, as in a plain run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <semaphore>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A one-shot event, as such libraries have it: Notify once, wait for it with
// or without a timeout.
class Notification {
 public:
  void Notify() {
    std::lock_guard lock(mu_);
    notified_ = true;
    cv_.notify_all();
  }
  bool WaitForNotificationWithTimeout(Clock::duration timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return notified_; });
  }
  bool WaitForNotificationWithDeadline(Clock::time_point deadline) {
    std::unique_lock lock(mu_);
    return cv_.wait_until(lock, deadline, [&] { return notified_; });
  }
  void WaitForNotification() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return notified_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;
};

// The check such tests make: a timed wait that timed out took at least its
// timeout, as the clock sees it.
void ExpectTookAtLeast(Clock::duration took, Clock::duration timeout) {
  EXPECT_GE(took, timeout)
      << "returned "
      << std::chrono::duration<double, std::milli>(timeout - took).count()
      << " ms early";
}

TEST(NotificationTest, WaitForNotificationWithTimeoutTimesOutInTime) {
  Notification never;
  std::thread company([] { std::this_thread::yield(); });
  const auto start = Clock::now();
  EXPECT_FALSE(never.WaitForNotificationWithTimeout(50ms));
  ExpectTookAtLeast(Clock::now() - start, 50ms);
  company.join();
}

TEST(NotificationTest, WaitForNotificationWithDeadlineTimesOutInTime) {
  Notification never;
  std::thread company([] { std::this_thread::yield(); });
  const auto deadline = Clock::now() + 50ms;
  EXPECT_FALSE(never.WaitForNotificationWithDeadline(deadline));
  EXPECT_GE(Clock::now(), deadline);
  company.join();
}

TEST(NotificationTest, ANotificationBeforeTheTimeoutIsSeen) {
  Notification note;
  std::thread notifier([&] { note.Notify(); });
  // A wait that gives up only after a second: the notification comes first.
  EXPECT_TRUE(note.WaitForNotificationWithTimeout(2s));
  notifier.join();
}

TEST(NotificationTest, AWaiterThatTimesOutMayWaitAgain) {
  Notification note;
  std::thread notifier([&] {
    std::this_thread::sleep_for(100ms);
    note.Notify();
  });
  const auto start = Clock::now();
  if (!note.WaitForNotificationWithTimeout(10ms)) {
    ExpectTookAtLeast(Clock::now() - start, 10ms);
    note.WaitForNotification();
  }
  notifier.join();
}

TEST(MutexTest, TimedLockGivesUpOnlyAfterItsTimeout) {
  std::timed_mutex mu;
  std::atomic<bool> held{false};
  std::thread holder([&] {
    std::lock_guard lock(mu);
    held = true;
    std::this_thread::sleep_for(200ms);
  });
  while (!held) std::this_thread::yield();
  const auto start = Clock::now();
  if (mu.try_lock_for(50ms)) {
    mu.unlock();
  } else {
    ExpectTookAtLeast(Clock::now() - start, 50ms);
  }
  holder.join();
}

TEST(MutexTest, AwaitWithTimeoutMeasuresItsWait) {
  std::mutex mu;
  std::condition_variable cv;
  int value = 0;
  std::thread writer([&] {
    std::lock_guard lock(mu);
    ++value;
  });
  std::unique_lock lock(mu);
  const auto start = Clock::now();
  const bool reached = cv.wait_for(lock, 30ms, [&] { return value == 2; });
  EXPECT_FALSE(reached);
  ExpectTookAtLeast(Clock::now() - start, 30ms);
  lock.unlock();
  writer.join();
}

TEST(WaiterTest, SemaphoreTryAcquireForTimesOutInTime) {
  std::counting_semaphore<8> sem(0);
  std::thread company([] { std::this_thread::yield(); });
  const auto start = Clock::now();
  EXPECT_FALSE(sem.try_acquire_for(25ms));
  ExpectTookAtLeast(Clock::now() - start, 25ms);
  company.join();
}

TEST(WaiterTest, FutureWaitForTimesOutInTime) {
  auto value = std::async(std::launch::async, [] {
    std::this_thread::sleep_for(100ms);
    return 7;
  });
  const auto start = Clock::now();
  if (value.wait_for(10ms) == std::future_status::timeout) {
    ExpectTookAtLeast(Clock::now() - start, 10ms);
  }
  EXPECT_EQ(value.get(), 7);
}

TEST(SleepTest, SleepsMeasureTheirOwnLength) {
  std::thread other([] {
    const auto start = Clock::now();
    std::this_thread::sleep_for(40ms);
    ExpectTookAtLeast(Clock::now() - start, 40ms);
  });
  const auto start = Clock::now();
  std::this_thread::sleep_for(60ms);
  ExpectTookAtLeast(Clock::now() - start, 60ms);
  other.join();
}

TEST(SleepTest, ALongSleepAndATimeoutAgree) {
  Notification note;
  // The clock is read before the sleeper starts: its sleep may begin first.
  const auto start = Clock::now();
  std::thread sleeper([&] {
    std::this_thread::sleep_for(1500ms);
    note.Notify();
  });
  if (!note.WaitForNotificationWithTimeout(1200ms)) {
    ExpectTookAtLeast(Clock::now() - start, 1200ms);
  }
  note.WaitForNotification();
  ExpectTookAtLeast(Clock::now() - start, 1500ms);
  sleeper.join();
}

// The one racy test: a flag written by two threads without a lock.
TEST(RacyTest, AFlagWrittenWithoutALockRaces) {
  int flag = 0;
  std::thread writer([&] { flag = 1; });
  flag = 2;
  writer.join();
  EXPECT_NE(flag, 0);
}

}  // namespace
