// Link-time interposition of the primitives that std::mutex,
// std::shared_mutex, std::condition_variable, std::thread, std::atomic,
// std::this_thread::yield and sleep_for reach, so that unmodified code gets
// scheduling points in controlled mode. This file: the hooks' installation,
// threads, yields, sleeps and atomics; interpose_locks.cc: mutexes, rwlocks
// and condition variables; interpose_waits.cc: barriers, semaphores and the
// non-portable joins.
//
// Mechanism. An executable that links racelab_sync defines pthread_mutex_lock
// and its siblings as strong symbols. ThreadSanitizer's own interceptors for
// them are weak aliases of __interceptor_<name>, so these definitions win and
// call the interceptor for the real work (TSan still sees every acquire and
// release); in builds without TSan the next definition (libc's) is found with
// dlsym(RTLD_NEXT). libstdc++.so's out-of-line calls (std::thread's
// pthread_create, condition_variable::wait) reach the executable's
// definitions through the dynamic symbol table. Atomics: with
// -fsanitize=thread every std::atomic operation and fence is a call to
// __tsan_atomic*; the link option --wrap=<name> (added by the CMake targets)
// sends it to __wrap_<name> here, which calls __real_<name>.
//
// Outside a controlled run (no hooks installed), and on any thread that is not
// a logical thread of the run, each function is a plain call of the real one.
// Limits: code not compiled with TSan (inline assembly, prebuilt libraries,
// libstdc++.so's own atomics and futexes, raw syscalls) has no atomic or futex
// scheduling points; a thread blocked in such code holds the baton.
//
// This file is compiled without sanitizer instrumentation: it runs inside the
// primitives TSan models and must add no accesses or edges of its own.
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

#include "interpose_common.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/scheduling_hooks.h"

using racelab::LockMode;
using racelab::PointEffect;
using racelab::SchedulingHooks;

namespace racelab {
namespace {
// Process-wide on purpose: every interposed call on every OS thread reads
// it; the controlled scheduler installs its hooks for one run. Here, in the
// uninstrumented file, so that reading it is neither a race nor an
// interposed atomic.
SchedulingHooks* g_hooks = nullptr;
}  // namespace

namespace {
std::uint64_t g_progress_steps = 0;
}  // namespace
void note_progress() {
  __atomic_add_fetch(&g_progress_steps, 1, __ATOMIC_RELAXED);
}
std::uint64_t progress_steps() {
  return __atomic_load_n(&g_progress_steps, __ATOMIC_RELAXED);
}

SchedulingHooks* active_scheduling_hooks() {
  return __atomic_load_n(&g_hooks, __ATOMIC_ACQUIRE);
}
void set_active_scheduling_hooks(SchedulingHooks* hooks) {
  __atomic_store_n(&g_hooks, hooks, __ATOMIC_RELEASE);
}
}  // namespace racelab

namespace racelab::sync_internal {  // sync.cc
void before_interposed_lock(const void* lock, const char* name, LockMode mode,
                            bool recursive);
void after_unlock(const void* lock);
}  // namespace racelab::sync_internal

namespace racelab::interpose_internal {
StressYieldHook stress_yield_hook();  // sync.cc
namespace {
thread_local int t_harness_depth = 0;
thread_local int t_unwatched_depth = 0;  // of t_harness_depth, TSan's unwatched
thread_local bool t_in_run = false;
thread_local const void* t_call_sites[kCallSiteDepth + 1] = {};
}  // namespace

// Not instrumented: TSan's report callback calls them (NotSchedulingPoints),
// and the counter is the thread's own.
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) void
enter_harness() {
  ++t_harness_depth;
}
void set_thread_in_run(bool in_run) { t_in_run = in_run; }
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) void
leave_harness() {
  --t_harness_depth;
}
void enter_unwatched_harness() {
  ++t_harness_depth;
  ++t_unwatched_depth;
}
void leave_unwatched_harness() {
  --t_unwatched_depth;
  --t_harness_depth;
}
const void* const* call_sites() { return t_call_sites; }

// Walks the frame pointers (every racelab build keeps them) from the
// interposed function's caller, stopping at anything that does not look like
// a frame further up this stack.
__attribute__((noinline)) void capture_call_sites() {
  auto* frame = static_cast<void* const*>(__builtin_frame_address(0));
  int depth = 0;
  while (depth < kCallSiteDepth && frame != nullptr) {
    const void* return_address = frame[1];
    if (return_address == nullptr) break;
    t_call_sites[depth++] = return_address;
    auto* next = static_cast<void* const*>(frame[0]);
    if (next <= frame || reinterpret_cast<const char*>(next) -
                                 reinterpret_cast<const char*>(frame) >
                             (1 << 20)) {
      break;
    }
    frame = next;
  }
  t_call_sites[depth] = nullptr;
}
void stress_lock_point(const char* what) {
  if (t_harness_depth > 0) return;
  StressYieldHook hook = stress_yield_hook();
  if (hook == nullptr) return;
  ++t_harness_depth;  // the hook's own locks are not points
  hook(what);
  --t_harness_depth;
}
void stress_before_lock(const void* lock, const char* name, LockMode mode,
                        bool recursive) {
  if (t_harness_depth > 0 || stress_yield_hook() == nullptr) return;
  ++t_harness_depth;  // the report's own locks are not tracked
  sync_internal::before_interposed_lock(lock, name, mode, recursive);
  --t_harness_depth;
}
// Whatever the depth: a lock taken outside harness code may be released
// inside it.
void stress_after_unlock(const void* lock) {
  sync_internal::after_unlock(lock);
}
}  // namespace racelab::interpose_internal

namespace racelab::interpose_internal {

SchedulingHooks* controlling() {
  int& depth = t_harness_depth;
  if (!t_in_run || depth > 0) return nullptr;
  SchedulingHooks* hooks = racelab::active_scheduling_hooks();
  if (hooks == nullptr) return nullptr;
  ++depth;  // whatever owns_calling_thread() touches is not a point
  const bool owns = hooks->owns_calling_thread();
  --depth;
  return owns ? hooks : nullptr;
}

}  // namespace racelab::interpose_internal

namespace {
using racelab::interpose_internal::controlling;
using racelab::interpose_internal::t_unwatched_depth;
}  // namespace

RACELAB_REAL(int, pthread_create,
             (pthread_t*, const pthread_attr_t*, void* (*)(void*), void*))
RACELAB_REAL(int, pthread_join, (pthread_t, void**))
RACELAB_REAL(int, pthread_detach, (pthread_t))
RACELAB_REAL(int, pthread_cancel, (pthread_t))
RACELAB_REAL(int, sched_yield, ())
RACELAB_REAL(int, nanosleep, (const struct timespec*, struct timespec*))
RACELAB_REAL(int, clock_nanosleep,
             (clockid_t, int, const struct timespec*, struct timespec*))
RACELAB_REAL(int, usleep, (useconds_t))
RACELAB_REAL(unsigned, sleep, (unsigned))

namespace racelab::interpose_internal {

// The real primitives, for the scheduler (which creates and joins the OS
// threads of a run itself).
int real_pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                        void* (*start)(void*), void* arg) {
  return ::real_pthread_create()(thread, attr, start, arg);
}
int real_pthread_join(pthread_t thread, void** result) {
  return ::real_pthread_join()(thread, result);
}

}  // namespace racelab::interpose_internal

namespace {

// A sleep in controlled mode: time is the scheduler's, so it is a point where
// other threads may run, and no real time passes.
bool controlled_sleep() {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return false;
  pthread_testcancel();  // a sleep is a cancellation point
  hooks->yield_point("sleep", PointEffect::kYield);
  return true;
}

}  // namespace

extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                   void* (*start)(void*), void* arg) {
  if (SchedulingHooks* hooks = controlling()) {
    int result = 0;
    if (hooks->spawn(thread, attr, start, arg, &result)) return result;
  }
  return ::real_pthread_create()(thread, attr, start, arg);
}

// A join is a cancellation point: a request that arrives while it waits
// wakes it (SchedulingHooks::cancel), and it acts on it here; a caller whose
// cancellation is disabled goes back to waiting.
int pthread_join(pthread_t thread, void** result) {
  if (SchedulingHooks* hooks = controlling()) {
    pthread_testcancel();
    bool finished = false;
    while (hooks->join(thread, racelab::JoinWait::kBlock, &finished) &&
           !finished) {
      pthread_testcancel();
    }
  }
  return real_pthread_join()(thread, result);
}

int pthread_cancel(pthread_t thread) {
  const int result = real_pthread_cancel()(thread);
  if (result != 0) return result;
  if (SchedulingHooks* hooks = controlling()) hooks->cancel(thread);
  return 0;
}

int pthread_detach(pthread_t thread) {
  if (SchedulingHooks* hooks = controlling()) hooks->detach(thread);
  return real_pthread_detach()(thread);
}

int sched_yield() {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->yield_point("yield", PointEffect::kYield);
    return 0;
  }
  return real_sched_yield()();
}

int nanosleep(const struct timespec* duration, struct timespec* left) {
  if (controlled_sleep()) return 0;
  return real_nanosleep()(duration, left);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec* at,
                    struct timespec* left) {
  if (controlled_sleep()) return 0;
  return real_clock_nanosleep()(clock, flags, at, left);
}

int usleep(useconds_t micros) {
  if (controlled_sleep()) return 0;
  return real_usleep()(micros);
}

unsigned sleep(unsigned seconds) {
  if (controlled_sleep()) return 0;
  return real_sleep()(seconds);
}

}  // extern "C"

#ifdef RACELAB_INTERPOSE_TSAN_ATOMICS
// TSan's atomic entry points
// (compiler-rt/include/sanitizer/tsan_interface_atomic.h). Every one is a
// scheduling point before the access; a load, a fence or a signal fence changes
// nothing and counts toward the fairness bound.
namespace {
using a8 = char;
using a16 = short;
using a32 = int;
using a64 = long long;
using a128 = __int128;
using morder = int;

inline void before_atomic(const char* what, PointEffect effect,
                          const volatile void* address, bool read) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point(
        what, effect,
        {racelab::ObjectKind::kAtomic, const_cast<const void*>(address),
         read ? racelab::AccessKind::kRead : racelab::AccessKind::kWrite},
        racelab::PointKind::kInner);
  }
}
// A compare-and-swap ends a lock-free operation's window between reading a
// value and publishing what it computed from it, as a lock acquisition ends a
// check-then-act's: in stress mode the runner may nudge the thread there.
//
// For the fairness bound a compare-and-swap changes something only when it
// succeeds (a failed one in a retry loop is a spin): the point counts as no
// progress, and after_cas() reports a success.
inline SchedulingHooks* before_cas(const volatile void* address) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point(
        "atomic compare_exchange", PointEffect::kNoProgress,
        {racelab::ObjectKind::kAtomic, const_cast<const void*>(address),
         racelab::AccessKind::kWrite},
        racelab::PointKind::kInner);
    return hooks;
  }
  racelab::interpose_internal::stress_lock_point("atomic compare_exchange");
  return nullptr;
}
inline void after_cas(SchedulingHooks* hooks, bool succeeded) {
  if (hooks != nullptr && succeeded) hooks->progressed();
}
// Whether atomics are done natively (harness code, see above). Each caller
// asks only for atomics of up to 8 bytes (`if constexpr`): __int128 always
// goes to TSan, natively it would need libatomic.
bool native_in_harness() { return t_unwatched_depth > 0; }
}  // namespace

#define RACELAB_ATOMIC_SIZE(T, N)                                             \
  extern "C" T __real___tsan_atomic##N##_load(const volatile T*, morder);     \
  extern "C" T __wrap___tsan_atomic##N##_load(const volatile T* a,            \
                                              morder mo) {                    \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) return __atomic_load_n(a, __ATOMIC_SEQ_CST);   \
    }                                                                         \
    before_atomic("atomic load", PointEffect::kNoProgress, a, true);          \
    return __real___tsan_atomic##N##_load(a, mo);                             \
  }                                                                           \
  extern "C" void __real___tsan_atomic##N##_store(volatile T*, T, morder);    \
  extern "C" void __wrap___tsan_atomic##N##_store(volatile T* a, T v,         \
                                                  morder mo) {                \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                             \
        return;                                                               \
      }                                                                       \
    }                                                                         \
    before_atomic("atomic store", PointEffect::kProgress, a, false);          \
    __real___tsan_atomic##N##_store(a, v, mo);                                \
  }                                                                           \
  RACELAB_ATOMIC_RMW(T, N, exchange, __atomic_exchange_n)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_add, __atomic_fetch_add)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_sub, __atomic_fetch_sub)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_and, __atomic_fetch_and)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_or, __atomic_fetch_or)                       \
  RACELAB_ATOMIC_RMW(T, N, fetch_xor, __atomic_fetch_xor)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_nand, __atomic_fetch_nand)                   \
  RACELAB_ATOMIC_CAS(T, N, compare_exchange_strong, false)                    \
  RACELAB_ATOMIC_CAS(T, N, compare_exchange_weak, true)                       \
  extern "C" T __real___tsan_atomic##N##_compare_exchange_val(                \
      volatile T*, T, T, morder, morder);                                     \
  extern "C" T __wrap___tsan_atomic##N##_compare_exchange_val(                \
      volatile T* a, T c, T v, morder mo, morder fail_mo) {                   \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST,        \
                                    __ATOMIC_SEQ_CST);                        \
        return c;                                                             \
      }                                                                       \
    }                                                                         \
    SchedulingHooks* hooks = before_cas(a);                                   \
    const T seen =                                                            \
        __real___tsan_atomic##N##_compare_exchange_val(a, c, v, mo, fail_mo); \
    after_cas(hooks, seen == c);                                              \
    return seen;                                                              \
  }

// `native` is the __atomic builtin of the operation.
#define RACELAB_ATOMIC_RMW(T, N, op, native)                                   \
  extern "C" T __real___tsan_atomic##N##_##op(volatile T*, T, morder);         \
  extern "C" T __wrap___tsan_atomic##N##_##op(volatile T* a, T v, morder mo) { \
    if constexpr (sizeof(T) <= 8) {                                            \
      if (native_in_harness()) return native(a, v, __ATOMIC_SEQ_CST);          \
    }                                                                          \
    before_atomic("atomic " #op, PointEffect::kProgress, a, false);            \
    return __real___tsan_atomic##N##_##op(a, v, mo);                           \
  }

#define RACELAB_ATOMIC_CAS(T, N, op, weak)                                    \
  extern "C" int __real___tsan_atomic##N##_##op(volatile T*, T*, T, morder,   \
                                                morder);                      \
  extern "C" int __wrap___tsan_atomic##N##_##op(volatile T* a, T* c, T v,     \
                                                morder mo, morder fail_mo) {  \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        return __atomic_compare_exchange_n(a, c, v, weak, __ATOMIC_SEQ_CST,   \
                                           __ATOMIC_SEQ_CST);                 \
      }                                                                       \
    }                                                                         \
    SchedulingHooks* hooks = before_cas(a);                                   \
    const int swapped = __real___tsan_atomic##N##_##op(a, c, v, mo, fail_mo); \
    after_cas(hooks, swapped != 0);                                           \
    return swapped;                                                           \
  }

RACELAB_ATOMIC_SIZE(a8, 8)
RACELAB_ATOMIC_SIZE(a16, 16)
RACELAB_ATOMIC_SIZE(a32, 32)
RACELAB_ATOMIC_SIZE(a64, 64)
RACELAB_ATOMIC_SIZE(a128, 128)

extern "C" void __real___tsan_atomic_thread_fence(morder);
extern "C" void __wrap___tsan_atomic_thread_fence(morder mo) {
  if (native_in_harness()) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return;
  }
  if (SchedulingHooks* hooks = controlling()) {
    hooks->yield_point("atomic fence", PointEffect::kNoProgress);
  }
  __real___tsan_atomic_thread_fence(mo);
}
#endif  // RACELAB_INTERPOSE_TSAN_ATOMICS

// Referenced by the link options of racelab_sync, so this object is always
// part of the executable even where nothing else pulls it from the archive.
extern "C" const char racelab_interpose_anchor = 0;
