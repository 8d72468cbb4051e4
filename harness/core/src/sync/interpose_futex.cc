// The interposed futex system call and the guards of function-local statics
// (the mechanism: interpose.cc). Under control a thread that would sleep in
// one waits in the scheduler instead (docs/controlled-mode.md, "Blocking and
// fairness"); a futex call is a scheduling point at its entry:
//
// - syscall(SYS_futex, ...): libstdc++ waits and wakes through it
//   (std::atomic::wait and notify, std::future and std::promise, std::latch,
//   std::barrier, std::counting_semaphore), and so do programs that build
//   their own primitives on a futex. FUTEX_WAIT and FUTEX_WAIT_BITSET compare
//   the word with the expected value (EAGAIN when it differs) and wait in the
//   scheduler until a FUTEX_WAKE (or FUTEX_WAKE_BITSET) of the same word
//   wakes them, or, with a timeout, until the wait times out (ETIMEDOUT; a
//   FUTEX_WAIT's timeout is relative, a FUTEX_WAIT_BITSET's an absolute time
//   on CLOCK_MONOTONIC, or CLOCK_REALTIME with FUTEX_CLOCK_REALTIME); a wake
//   wakes at most the number it asks for, lowest thread first, and returns how
//   many it woke. A bitset is not compared: waking a waiter whose bits do not
//   match is a spurious wake-up, which every futex caller tolerates. The other
//   futex operations (requeue, wake-op, priority inheritance) and every other
//   system call are passed to the kernel. A wake also wakes sleepers in the
//   kernel (threads outside the run) for what the run's waiters leave of its
//   count.
// - __cxa_guard_acquire, __cxa_guard_release, __cxa_guard_abort (the calls
//   compiled into the executable: libraries' statics are not seen): a thread
//   that finds a static's initialisation running in another thread waits in
//   the scheduler until that initialisation ends (release or abort); then
//   the real call (TSan's interceptor, which records the edge) cannot wait.
//   The compiled code's atomic load of the guard before the call is the
//   scheduling point.
//   Which guards are being initialised is kept here, by address, so that
//   the guard's layout (TSan's or libstdc++'s) does not matter.
//
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/raw_syscall.h"

using racelab::PointAccess;
using racelab::PointEffect;
using racelab::SchedulingHooks;
using racelab::Timeout;
using racelab::interpose_internal::controlling;

RACELAB_REAL(long, syscall, (long, ...))
// The guard functions: TSan defines them outright (no weak alias to
// override), so the link option --wrap=<name> (added by the CMake targets)
// sends the executable's calls to __wrap_<name> here, and __real_<name> is
// TSan's (or, without TSan, libstdc++'s).
extern "C" int __real___cxa_guard_acquire(std::int64_t* guard);
extern "C" void __real___cxa_guard_release(std::int64_t* guard);
extern "C" void __real___cxa_guard_abort(std::int64_t* guard);

namespace {

PointAccess futex_access(const void* word) {
  return {racelab::ObjectKind::kFutex, word, racelab::AccessKind::kWrite};
}
PointAccess guard_access(const void* guard) {
  return {racelab::ObjectKind::kGuard, guard, racelab::AccessKind::kWrite};
}

long futex_wait(SchedulingHooks* hooks, const std::uint32_t* word,
                std::uint32_t expected, Timeout timeout) {
  hooks->access_point("futex_wait", PointEffect::kNoProgress,
                      futex_access(word), racelab::PointKind::kInner);
  if (__atomic_load_n(word, __ATOMIC_RELAXED) != expected) {
    errno = EAGAIN;
    return -1;
  }
  if (hooks->object_wait(futex_access(word), timeout)) {
    errno = ETIMEDOUT;
    return -1;
  }
  return 0;
}

// Wakes the run's waiters first, then, for what is left of `at_most`, the
// kernel's (a thread outside the run may sleep on the same word).
long futex_wake(SchedulingHooks* hooks, const long* args) {
  const auto* word = reinterpret_cast<const std::uint32_t*>(args[0]);
  const int at_most = static_cast<int>(args[2]);
  hooks->access_point("futex_wake", PointEffect::kProgress, futex_access(word),
                      racelab::PointKind::kInner);
  if (at_most <= 0) return 0;
  const int woken = hooks->wake_object(word, at_most);
  if (woken == at_most) return woken;
  const long more = real_syscall()(SYS_futex, args[0], args[1], at_most - woken,
                                   args[3], args[4], args[5]);
  return more > 0 ? woken + more : woken;
}

// The futex calls modelled under control; false for the rest.
bool modelled_futex(SchedulingHooks* hooks, const long* args, long* result) {
  const auto* word = reinterpret_cast<const std::uint32_t*>(args[0]);
  const int op = static_cast<int>(args[1]) & FUTEX_CMD_MASK;
  const auto value = static_cast<std::uint32_t>(args[2]);
  const auto* limit = reinterpret_cast<const timespec*>(args[3]);
  switch (op) {
    case FUTEX_WAIT:
      *result = futex_wait(hooks, word, value,
                           racelab::interpose_internal::timeout_after(limit));
      return true;
    case FUTEX_WAIT_BITSET:
      *result = futex_wait(
          hooks, word, value,
          racelab::interpose_internal::timeout_at(
              (args[1] & FUTEX_CLOCK_REALTIME) != 0 ? CLOCK_REALTIME
                                                    : CLOCK_MONOTONIC,
              limit));
      return true;
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET:
      *result = futex_wake(hooks, args);
      return true;
    default:
      return false;
  }
}

// The guards whose initialisation has begun and not ended, by address.
// Initialisations nest (a static's initialiser may reach another static),
// rarely deeply; past the table's size a guard is not tracked, and a thread
// that meets it running waits in the real call.
constexpr int kTrackedGuards = 256;
const void* g_running_guards[kTrackedGuards];

bool guard_running(const void* guard) {
  for (const void*& slot : g_running_guards) {
    if (__atomic_load_n(&slot, __ATOMIC_ACQUIRE) == guard) return true;
  }
  return false;
}

void mark_guard_running(const void* guard) {
  for (const void*& slot : g_running_guards) {
    const void* empty = nullptr;
    if (__atomic_compare_exchange_n(&slot, &empty, guard, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return;
    }
  }
}

void mark_guard_ended(const void* guard) {
  for (const void*& slot : g_running_guards) {
    const void* expected = guard;
    if (__atomic_compare_exchange_n(&slot, &expected, nullptr, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return;
    }
  }
}

// After the real release or abort: the waiters may go on.
void guard_ended(std::int64_t* guard) {
  mark_guard_ended(guard);
  if (SchedulingHooks* hooks = controlling()) {
    hooks->wake_object(guard, SchedulingHooks::kEveryWaiter);
  }
}

// Resolved before main (and so before any fork): raw_syscall() calls it
// from forked children, where dlsym is not safe.
__attribute__((constructor)) void resolve_kernel_syscall() { real_syscall(); }

}  // namespace

namespace racelab {
long kernel_syscall(long number, long a0, long a1, long a2, long a3, long a4,
                    long a5) {
  return real_syscall()(number, a0, a1, a2, a3, a4, a5);
}
}  // namespace racelab

RACELAB_BEGIN_INTERPOSED
extern "C" {

long syscall(long number, ...) noexcept {
  long args[6];
  va_list list;
  va_start(list, number);
  for (long& arg : args) arg = va_arg(list, long);
  va_end(list);
  if (number == SYS_futex) {
    if (SchedulingHooks* hooks = controlling()) {
      long result = 0;
      if (modelled_futex(hooks, args, &result)) return result;
    }
  }
  // The clocks, read past libc: the run's, as clock_gettime's are.
  if (number == SYS_clock_gettime &&
      racelab::interpose_internal::run_clock_now(
          static_cast<clockid_t>(args[0]),
          reinterpret_cast<timespec*>(args[1]))) {
    return 0;
  }
  return real_syscall()(number, args[0], args[1], args[2], args[3], args[4],
                        args[5]);
}

// No scheduling point of its own: the compiled code's look at the guard
// before the call is an atomic load, and so already a point; and a point here
// would come only while the static is not yet initialised, so that a
// search's first run would make decisions the reruns do not.
int __wrap___cxa_guard_acquire(std::int64_t* guard) {
  if (SchedulingHooks* hooks = controlling()) {
    while (guard_running(guard)) {
      hooks->object_wait(guard_access(guard), Timeout{});
    }
  }
  const int first = __real___cxa_guard_acquire(guard);
  if (first != 0) mark_guard_running(guard);
  return first;
}

void __wrap___cxa_guard_release(std::int64_t* guard) {
  __real___cxa_guard_release(guard);
  guard_ended(guard);
}

void __wrap___cxa_guard_abort(std::int64_t* guard) {
  __real___cxa_guard_abort(guard);
  guard_ended(guard);
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab_sync, as interpose.cc's anchor.
extern "C" const char racelab_interpose_futex_anchor = 0;
