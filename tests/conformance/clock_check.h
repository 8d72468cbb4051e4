// What the time conformance programs (time_*.cc) share: a clock's reading in
// nanoseconds, and the check that a wait or a sleep returned no earlier than
// it should have, as the program's own clocks see it. A check that fails
// prints what it saw and aborts (a crash verdict).
#ifndef RACELAB_TESTS_CONFORMANCE_CLOCK_CHECK_H_
#define RACELAB_TESTS_CONFORMANCE_CLOCK_CHECK_H_

#include <time.h>

#include <cstdio>
#include <cstdlib>

inline long long now_ns(clockid_t clock) {
  timespec now{};
  if (clock_gettime(clock, &now) != 0) std::abort();
  return now.tv_sec * 1'000'000'000LL + now.tv_nsec;
}

inline long long ms(long long nanos) { return nanos * 1'000'000LL; }

// `what` took `took` nanoseconds on its clock, and must have taken at least
// `at_least`.
inline void expect_took(const char* what, long long took, long long at_least) {
  if (took >= at_least) return;
  std::fprintf(stderr, "%s returned %.3f ms early (took %.3f ms of %.3f)\n",
               what, (at_least - took) / 1e6, took / 1e6, at_least / 1e6);
  std::abort();
}

inline void expect(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}

// A timespec `nanos` after `clock`'s now.
inline timespec after(clockid_t clock, long long nanos) {
  const long long at = now_ns(clock) + nanos;
  return timespec{static_cast<time_t>(at / 1'000'000'000LL),
                  static_cast<long>(at % 1'000'000'000LL)};
}

#endif  // RACELAB_TESTS_CONFORMANCE_CLOCK_CHECK_H_
