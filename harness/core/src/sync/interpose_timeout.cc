// The deadline of an interposed timed wait in the run's model of time
// (docs/controlled-mode.md, "Time"): how far after the time of the call the
// deadline the program gave lies, on the clock it gave it on, decides whether
// the wait may time out at a decision the strategy chooses (at most the
// horizon, kTimeoutHorizonNs) or only once no thread of the run can go on
// without time passing (beyond it). Far deadlines are put on CLOCK_MONOTONIC,
// so that waits on different clocks expire in the order of their deadlines.
//
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <time.h>

#include <cstdint>
#include <limits>

#include "interpose_common.h"

namespace racelab::interpose_internal {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// `time` in nanoseconds, saturated at kNever (a deadline such as
// time_point::max()).
std::int64_t nanos_of(const timespec& time) {
  std::int64_t nanos;
  if (__builtin_mul_overflow(static_cast<std::int64_t>(time.tv_sec),
                             kNanosPerSecond, &nanos) ||
      __builtin_add_overflow(nanos, static_cast<std::int64_t>(time.tv_nsec),
                             &nanos)) {
    return time.tv_sec < 0 ? -kNever : kNever;
  }
  return nanos;
}

// The clock's time as the program reads it (the run's, in a controlled run);
// 0 for a clock glibc does not read (its deadline is then
// far, and the real call answers the clock).
std::int64_t now_on(clockid_t clock) {
  timespec now{};
  if (clock_now(clock, &now) != 0) return 0;
  return nanos_of(now);
}

Timeout timeout_in(std::int64_t remaining) {
  Timeout timeout;
  timeout.kind =
      remaining <= kTimeoutHorizonNs ? TimeoutKind::kNear : TimeoutKind::kFar;
  if (__builtin_add_overflow(now_on(CLOCK_MONOTONIC), remaining,
                             &timeout.deadline_ns)) {
    timeout.deadline_ns = kNever;
  }
  return timeout;
}

}  // namespace

Timeout timeout_at(clockid_t clock, const timespec* deadline) {
  if (deadline == nullptr) return {};
  std::int64_t remaining;
  if (__builtin_sub_overflow(nanos_of(*deadline), now_on(clock), &remaining)) {
    remaining = kNever;
  }
  return timeout_in(remaining);
}

Timeout timeout_after(const timespec* relative) {
  if (relative == nullptr) return {};
  return timeout_in(nanos_of(*relative));
}

// glibc's condition variable keeps its clock in bit 1 of __wrefs
// (nptl/pthread_cond_common.c: __PTHREAD_COND_CLOCK_MONOTONIC_MASK).
clockid_t cond_clock(const pthread_cond_t* cond) {
  const unsigned flags =
      __atomic_load_n(&cond->__data.__wrefs, __ATOMIC_RELAXED);
  return (flags & 2u) != 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

}  // namespace racelab::interpose_internal
