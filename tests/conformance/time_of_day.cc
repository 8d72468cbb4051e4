// Conformance: the second-resolution clocks (time, timespec_get) agree with
// a sleep of 1.1 s on two threads: each reads at least one second later.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 20
#include <chrono>
#include <ctime>
#include <thread>

#include "clock_check.h"

void sleeper() {
  const time_t before = time(nullptr);
  timespec utc_before{};
  timespec_get(&utc_before, TIME_UTC);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  time_t after = 0;
  expect(time(&after) - before >= 1, "time() did not advance over 1.1 s");
  expect(after - before >= 1, "time(&t) did not store the time");
  timespec utc_after{};
  timespec_get(&utc_after, TIME_UTC);
  expect_took("timespec_get",
              (utc_after.tv_sec - utc_before.tv_sec) * 1'000'000'000LL +
                  (utc_after.tv_nsec - utc_before.tv_nsec),
              ms(1100));
}

int main() {
  std::thread other(sleeper);
  sleeper();
  other.join();
}
