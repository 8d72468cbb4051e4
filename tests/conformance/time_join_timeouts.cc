// Conformance: pthread_timedjoin_np and pthread_clockjoin_np on a thread
// that sleeps 150 ms give up only at their deadlines as the program's clocks
// see them, then a join waits for the thread.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <pthread.h>
#include <unistd.h>

#include <cerrno>

#include "clock_check.h"

void* sleeper(void*) {
  usleep(150'000);
  return nullptr;
}

int main() {
  pthread_t thread;
  pthread_create(&thread, nullptr, sleeper, nullptr);
  timespec at = after(CLOCK_REALTIME, ms(20));
  long long start = now_ns(CLOCK_REALTIME);
  int result = pthread_timedjoin_np(thread, nullptr, &at);
  if (result == 0) return 0;
  expect(result == ETIMEDOUT, "pthread_timedjoin_np failed");
  expect_took("pthread_timedjoin_np", now_ns(CLOCK_REALTIME) - start, ms(20));
  at = after(CLOCK_MONOTONIC, ms(20));
  start = now_ns(CLOCK_MONOTONIC);
  result = pthread_clockjoin_np(thread, nullptr, CLOCK_MONOTONIC, &at);
  if (result == 0) return 0;
  expect(result == ETIMEDOUT, "pthread_clockjoin_np failed");
  expect_took("pthread_clockjoin_np", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  pthread_join(thread, nullptr);
}
