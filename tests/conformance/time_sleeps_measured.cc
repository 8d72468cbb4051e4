// Conformance: two threads measure their own sleeps on every clock the run
// keeps (sleep_for, sleep_until, nanosleep, clock_nanosleep relative and
// absolute, usleep): each returns with each clock at least as far on as it
// slept (the coarse clocks within their resolution, the raw clock within
// NTP's frequency correction; the monotonic one read through
// syscall(SYS_clock_gettime) too), and no clock goes back.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "clock_check.h"

constexpr clockid_t kClocks[] = {CLOCK_REALTIME, CLOCK_MONOTONIC,
                                 CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME,
                                 CLOCK_TAI};
constexpr clockid_t kCoarse[] = {CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE};

template <class Sleep>
void measure(const char* what, long long nanos, Sleep sleep) {
  long long before[5], coarse_before[2];
  for (int i = 0; i < 5; ++i) before[i] = now_ns(kClocks[i]);
  for (int i = 0; i < 2; ++i) coarse_before[i] = now_ns(kCoarse[i]);
  timeval tv_before{};
  gettimeofday(&tv_before, nullptr);
  timespec raw_before{};
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &raw_before);
  const auto steady = std::chrono::steady_clock::now();
  const auto system = std::chrono::system_clock::now();
  sleep();
  for (int i = 0; i < 5; ++i) {
    // A sleep is measured on CLOCK_MONOTONIC, which NTP may run up to 500
    // ppm faster than CLOCK_MONOTONIC_RAW: the raw clock may see it 0.05%
    // shorter (allowed 0.5%).
    const long long slack = kClocks[i] == CLOCK_MONOTONIC_RAW ? nanos / 200 : 0;
    expect_took(what, now_ns(kClocks[i]) - before[i], nanos - slack);
  }
  for (int i = 0; i < 2; ++i) {
    timespec resolution{};
    clock_getres(kCoarse[i], &resolution);
    expect_took(what, now_ns(kCoarse[i]) - coarse_before[i],
                nanos - 2 * resolution.tv_nsec);
  }
  timespec raw_after{};
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &raw_after);
  expect_took(what,
              (raw_after.tv_sec - raw_before.tv_sec) * 1'000'000'000LL +
                  (raw_after.tv_nsec - raw_before.tv_nsec),
              nanos);
  timeval tv_after{};
  gettimeofday(&tv_after, nullptr);
  expect_took(what,
              (tv_after.tv_sec - tv_before.tv_sec) * 1'000'000'000LL +
                  (tv_after.tv_usec - tv_before.tv_usec) * 1000LL,
              nanos - 1000);
  expect_took(
      what,
      std::chrono::nanoseconds(std::chrono::steady_clock::now() - steady)
          .count(),
      nanos);
  expect_took(
      what,
      std::chrono::nanoseconds(std::chrono::system_clock::now() - system)
          .count(),
      nanos);
}

void sleeper() {
  using namespace std::chrono_literals;
  measure("sleep_for", ms(20), [] { std::this_thread::sleep_for(20ms); });
  measure("sleep_until", ms(20), [] {
    std::this_thread::sleep_until(std::chrono::steady_clock::now() + 20ms);
  });
  measure("nanosleep", ms(15), [] {
    const timespec d{0, 15'000'000};
    nanosleep(&d, nullptr);
  });
  measure("clock_nanosleep", ms(15), [] {
    const timespec d{0, 15'000'000};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &d, nullptr);
  });
  measure("clock_nanosleep(TIMER_ABSTIME, CLOCK_MONOTONIC)", ms(15), [] {
    const timespec at = after(CLOCK_MONOTONIC, ms(15));
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) != 0) {
    }
  });
  measure("clock_nanosleep(TIMER_ABSTIME, CLOCK_REALTIME)", ms(15), [] {
    const timespec at = after(CLOCK_REALTIME, ms(15));
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, nullptr) != 0) {
    }
  });
  measure("usleep", ms(10), [] { usleep(10'000); });
}

int main() {
  std::thread other(sleeper);
  sleeper();
  other.join();
}
