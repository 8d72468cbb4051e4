// Conformance: a thread holds the locks for 200 ms of sleep; main's timed
// lock calls give up only at their deadlines as its clocks see them
// (std::timed_mutex try_lock_for and try_lock_until,
// std::shared_timed_mutex try_lock_shared_for, pthread_mutex_timedlock and
// clocklock, pthread_rwlock_timedwrlock and clockrdlock), or take the lock.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "clock_check.h"

using namespace std::chrono_literals;

std::timed_mutex timed;
std::shared_timed_mutex shared;
pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
std::atomic<bool> held{false};

int main() {
  std::thread holder([] {
    timed.lock();
    shared.lock();
    pthread_mutex_lock(&plain);
    pthread_rwlock_wrlock(&rw);
    held = true;
    std::this_thread::sleep_for(200ms);
    pthread_rwlock_unlock(&rw);
    pthread_mutex_unlock(&plain);
    shared.unlock();
    timed.unlock();
  });
  while (!held) std::this_thread::yield();

  auto start = std::chrono::steady_clock::now();
  if (timed.try_lock_for(30ms)) {
    timed.unlock();
  } else {
    expect_took("try_lock_for",
                (std::chrono::steady_clock::now() - start).count(), ms(30));
  }
  const auto deadline = std::chrono::system_clock::now() + 30ms;
  if (timed.try_lock_until(deadline)) {
    timed.unlock();
  } else {
    expect(std::chrono::system_clock::now() >= deadline,
           "try_lock_until gave up before its deadline");
  }
  start = std::chrono::steady_clock::now();
  if (shared.try_lock_shared_for(30ms)) {
    shared.unlock_shared();
  } else {
    expect_took("try_lock_shared_for",
                (std::chrono::steady_clock::now() - start).count(), ms(30));
  }

  timespec at = after(CLOCK_REALTIME, ms(30));
  long long begun = now_ns(CLOCK_REALTIME);
  int result = pthread_mutex_timedlock(&plain, &at);
  if (result == 0) pthread_mutex_unlock(&plain);
  if (result == ETIMEDOUT) {
    expect_took("pthread_mutex_timedlock", now_ns(CLOCK_REALTIME) - begun,
                ms(30));
  }
  at = after(CLOCK_MONOTONIC, ms(30));
  begun = now_ns(CLOCK_MONOTONIC);
  result = pthread_mutex_clocklock(&plain, CLOCK_MONOTONIC, &at);
  if (result == 0) pthread_mutex_unlock(&plain);
  if (result == ETIMEDOUT) {
    expect_took("pthread_mutex_clocklock", now_ns(CLOCK_MONOTONIC) - begun,
                ms(30));
  }
  at = after(CLOCK_REALTIME, ms(30));
  begun = now_ns(CLOCK_REALTIME);
  result = pthread_rwlock_timedwrlock(&rw, &at);
  if (result == 0) pthread_rwlock_unlock(&rw);
  if (result == ETIMEDOUT) {
    expect_took("pthread_rwlock_timedwrlock", now_ns(CLOCK_REALTIME) - begun,
                ms(30));
  }
  at = after(CLOCK_MONOTONIC, ms(30));
  begun = now_ns(CLOCK_MONOTONIC);
  result = pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &at);
  if (result == 0) pthread_rwlock_unlock(&rw);
  if (result == ETIMEDOUT) {
    expect_took("pthread_rwlock_clockrdlock", now_ns(CLOCK_MONOTONIC) - begun,
                ms(30));
  }
  holder.join();
}
