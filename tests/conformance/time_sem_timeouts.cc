// Conformance: semaphores that nobody posts time out, and only at their
// deadlines as the program's clocks see them: sem_timedwait (real-time
// clock), sem_clockwait (monotonic), std::counting_semaphore's
// try_acquire_for and std::binary_semaphore's try_acquire_until (a futex
// wait with a timeout). A second thread posts one of them late.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <semaphore.h>

#include <cerrno>
#include <chrono>
#include <semaphore>
#include <thread>

#include "clock_check.h"

using namespace std::chrono_literals;

int main() {
  sem_t never, late;
  sem_init(&never, 0, 0);
  sem_init(&late, 0, 0);
  std::thread poster([&] {
    std::this_thread::sleep_for(100ms);
    sem_post(&late);
  });
  timespec at = after(CLOCK_REALTIME, ms(25));
  long long start = now_ns(CLOCK_REALTIME);
  expect(sem_timedwait(&never, &at) == -1 && errno == ETIMEDOUT,
         "sem_timedwait did not time out");
  expect_took("sem_timedwait", now_ns(CLOCK_REALTIME) - start, ms(25));
  at = after(CLOCK_MONOTONIC, ms(25));
  start = now_ns(CLOCK_MONOTONIC);
  expect(
      sem_clockwait(&never, CLOCK_MONOTONIC, &at) == -1 && errno == ETIMEDOUT,
      "sem_clockwait did not time out");
  expect_took("sem_clockwait", now_ns(CLOCK_MONOTONIC) - start, ms(25));
  // The late post comes, whether or not this wait times out first.
  at = after(CLOCK_REALTIME, ms(10));
  start = now_ns(CLOCK_REALTIME);
  if (sem_timedwait(&late, &at) != 0) {
    expect_took("sem_timedwait (late)", now_ns(CLOCK_REALTIME) - start, ms(10));
    sem_wait(&late);
  }
  poster.join();

  std::counting_semaphore<4> counting(0);
  auto begun = std::chrono::steady_clock::now();
  expect(!counting.try_acquire_for(25ms), "try_acquire_for acquired");
  expect_took("try_acquire_for",
              (std::chrono::steady_clock::now() - begun).count(), ms(25));
  std::binary_semaphore binary(0);
  const auto deadline = std::chrono::steady_clock::now() + 25ms;
  expect(!binary.try_acquire_until(deadline), "try_acquire_until acquired");
  expect(std::chrono::steady_clock::now() >= deadline,
         "try_acquire_until gave up before its deadline");
  sem_destroy(&never);
  sem_destroy(&late);
}
