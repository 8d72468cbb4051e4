// The clocks of a controlled run; see run_clock.h.
#include "run_clock.h"

#include <sys/syscall.h>

#include <algorithm>
#include <cerrno>
#include <limits>

#include "racelab/internal/scheduling_hooks.h"
#include "racelab/raw_syscall.h"

namespace racelab::interpose_internal {
// The real clock (interpose_clocks.cc), past the program's interposed one.
int real_clock_gettime(clockid_t clock, timespec* now);
}  // namespace racelab::interpose_internal

namespace racelab::sched::internal {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kUnread = std::numeric_limits<std::int64_t>::min();

std::int64_t nanos_of(const timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * kNanosPerSecond +
         time.tv_nsec;
}

}  // namespace

void RunClock::start(bool whole_program) {
  whole_program_ = whole_program;
  __atomic_store_n(&elapsed_, 0, __ATOMIC_RELAXED);
  for (std::int64_t& base : base_) {
    __atomic_store_n(&base, kUnread, __ATOMIC_RELAXED);
  }
}

bool RunClock::keeps(clockid_t clock) {
  return clock >= 0 && clock < kClocks && clock != CLOCK_PROCESS_CPUTIME_ID &&
         clock != CLOCK_THREAD_CPUTIME_ID;
}

std::int64_t RunClock::base_of(clockid_t clock) {
  std::int64_t& slot = base_[clock];
  std::int64_t base = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);
  if (base != kUnread) return base;
  timespec real{};
  if (interpose_internal::real_clock_gettime(clock, &real) != 0) return kUnread;
  // The run's time so far is already on the new clock: its base is the
  // real time less what has elapsed, so it reads the real time now.
  std::int64_t fresh = nanos_of(real) - elapsed();
  if (!__atomic_compare_exchange_n(&slot, &base, fresh, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    return base;  // another thread read it first
  }
  return fresh;
}

bool RunClock::read(clockid_t clock, timespec* now) {
  if (!keeps(clock)) return false;
  const std::int64_t base = base_of(clock);
  if (base == kUnread) return false;  // a clock this kernel lacks
  std::int64_t at;
  if (__builtin_add_overflow(
          base, __atomic_add_fetch(&elapsed_, kReadTickNs, __ATOMIC_RELAXED),
          &at)) {
    at = std::numeric_limits<std::int64_t>::max();  // a deadline of never
  }
  now->tv_sec = static_cast<time_t>(at / kNanosPerSecond);
  now->tv_nsec = static_cast<long>(at % kNanosPerSecond);
  return true;
}

void RunClock::pass_until(std::int64_t monotonic_ns) {
  const std::int64_t base = base_of(CLOCK_MONOTONIC);
  if (base == kUnread) return;
  std::int64_t target;
  if (__builtin_sub_overflow(monotonic_ns, base, &target)) return;
  std::int64_t now = elapsed();
  while (now < target &&
         !__atomic_compare_exchange_n(&elapsed_, &now, target, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  if (whole_program_ && threads_outside_the_run_seen()) {
    catch_up(monotonic_ns);
  }
}

// A thread outside the run works in real time: the run's time does not run
// ahead of the real time (CLOCK_MONOTONIC reads `monotonic_ns` on both), so
// that the outsider gets the time the program gave it. At most
// kMaxRealWaitNs at once: a far deadline is not waited out in full.
void RunClock::catch_up(std::int64_t monotonic_ns) {
  timespec real{};
  if (interpose_internal::real_clock_gettime(CLOCK_MONOTONIC, &real) != 0) {
    return;
  }
  const std::int64_t real_now = nanos_of(real);
  if (monotonic_ns <= real_now) return;
  const std::int64_t until =
      real_now + std::min(monotonic_ns - real_now, kMaxRealWaitNs);
  const timespec at{static_cast<time_t>(until / kNanosPerSecond),
                    static_cast<long>(until % kNanosPerSecond)};
  while (raw_syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &at,
                     nullptr) != 0 &&
         errno == EINTR) {
  }
}

void RunClock::pass(std::int64_t nanos) {
  if (nanos > 0) __atomic_add_fetch(&elapsed_, nanos, __ATOMIC_RELAXED);
}

std::int64_t RunClock::monotonic_now() {
  const std::int64_t base = base_of(CLOCK_MONOTONIC);
  std::int64_t now;
  if (base == kUnread || __builtin_add_overflow(base, elapsed(), &now)) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return now;
}

std::int64_t RunClock::elapsed() const {
  return __atomic_load_n(&elapsed_, __ATOMIC_RELAXED);
}

}  // namespace racelab::sched::internal
