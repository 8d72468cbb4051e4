// Conformance: condition-variable waits that nobody notifies time out, and
// only at their deadlines as the program's clocks see them: wait_for,
// wait_until on the steady and the system clock, pthread_cond_timedwait on a
// real-time and on a monotonic condition variable, pthread_cond_clockwait.
// Another thread takes the same mutex meanwhile, so the waits have company.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <pthread.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "clock_check.h"

using namespace std::chrono_literals;

std::mutex mu;
std::condition_variable cv;
int touched = 0;

void std_waits() {
  std::unique_lock lock(mu);
  auto start = std::chrono::steady_clock::now();
  expect(cv.wait_for(lock, 30ms) == std::cv_status::timeout,
         "wait_for was woken");
  expect_took("wait_for", (std::chrono::steady_clock::now() - start).count(),
              ms(30));
  expect(!cv.wait_for(lock, 30ms, [] { return false; }),
         "wait_for(pred) was satisfied");
  const auto steady_deadline = std::chrono::steady_clock::now() + 25ms;
  expect(cv.wait_until(lock, steady_deadline) == std::cv_status::timeout,
         "wait_until(steady) was woken");
  expect(std::chrono::steady_clock::now() >= steady_deadline,
         "wait_until(steady) timed out before its deadline");
  const auto system_deadline = std::chrono::system_clock::now() + 25ms;
  expect(cv.wait_until(lock, system_deadline) == std::cv_status::timeout,
         "wait_until(system) was woken");
  expect(std::chrono::system_clock::now() >= system_deadline,
         "wait_until(system) timed out before its deadline");
}

void pthread_waits() {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t realtime = PTHREAD_COND_INITIALIZER;
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_t monotonic;
  pthread_cond_init(&monotonic, &attr);
  pthread_mutex_lock(&m);
  timespec at = after(CLOCK_REALTIME, ms(20));
  long long start = now_ns(CLOCK_REALTIME);
  expect(pthread_cond_timedwait(&realtime, &m, &at) == ETIMEDOUT,
         "pthread_cond_timedwait (realtime) was woken");
  expect_took("pthread_cond_timedwait (realtime)",
              now_ns(CLOCK_REALTIME) - start, ms(20));
  at = after(CLOCK_MONOTONIC, ms(20));
  start = now_ns(CLOCK_MONOTONIC);
  expect(pthread_cond_timedwait(&monotonic, &m, &at) == ETIMEDOUT,
         "pthread_cond_timedwait (monotonic) was woken");
  expect_took("pthread_cond_timedwait (monotonic)",
              now_ns(CLOCK_MONOTONIC) - start, ms(20));
  at = after(CLOCK_MONOTONIC, ms(20));
  start = now_ns(CLOCK_MONOTONIC);
  expect(
      pthread_cond_clockwait(&realtime, &m, CLOCK_MONOTONIC, &at) == ETIMEDOUT,
      "pthread_cond_clockwait was woken");
  expect_took("pthread_cond_clockwait", now_ns(CLOCK_MONOTONIC) - start,
              ms(20));
  pthread_mutex_unlock(&m);
  pthread_cond_destroy(&monotonic);
}

int main() {
  std::thread company([] {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard lock(mu);
      ++touched;
    }
  });
  std_waits();
  pthread_waits();
  company.join();
}
