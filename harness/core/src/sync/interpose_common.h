// What the interposed primitives share (interpose.cc: threads, yields and
// sleeps; interpose_atomics.cc: TSan's atomics; interpose_locks.cc: mutexes,
// rwlocks and condition variables; interpose_waits.cc: barriers, semaphores,
// the _np joins; interpose_futex.cc: futexes, static guards; interpose_fds.cc:
// waits on file descriptors; interpose_os_waits.cc: child processes, file
// locks, signals; interpose_clocks.cc: the clocks): which hooks control the
// calling thread, and how the real function behind an interposed name is found.
// Included only by those uninstrumented files.
#ifndef RACELAB_SYNC_INTERPOSE_COMMON_H_
#define RACELAB_SYNC_INTERPOSE_COMMON_H_

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

#include "racelab/internal/scheduling_hooks.h"

namespace racelab::interpose_internal {

// The hooks that control the calling thread, or nullptr (no controlled run,
// harness code, or an OS thread that is not a logical thread of the run).
SchedulingHooks* controlling();

// Records the interposed lock call's return addresses (call_sites()).
void capture_call_sites();

// The return addresses of the calling thread's stack, innermost first, from
// the frame pointers (every racelab build keeps them), stopping at anything
// that does not look like a frame further up: at most `max` of them into
// `out`, after skipping the first `skip` (0: the return into the caller of
// this function). Returns how many were written.
int return_addresses(const void** out, int max, int skip);

// The Timeout of a wait with an absolute `deadline` on `clock`, or with a
// `relative` one (a futex wait's); no timeout for null. The clock of a
// condition variable's timed waits (pthread_condattr_setclock).
// Defined in interpose_timeout.cc.
Timeout timeout_at(clockid_t clock, const timespec* deadline);
Timeout timeout_after(const timespec* relative);
clockid_t cond_clock(const pthread_cond_t* cond);

// What `clock` reads for the calling thread: the run's time in a controlled
// run (SchedulingHooks::read_clock), else the real clock; as clock_gettime.
// The real clock, past the interposed one. Defined in interpose_clocks.cc.
int clock_now(clockid_t clock, timespec* now);
// The run's time on `clock` into `now`, in a controlled run on one of its
// threads; false where the real clock answers.
bool run_clock_now(clockid_t clock, timespec* now);
int real_clock_gettime(clockid_t clock, timespec* now);

// How deep the calling thread is in unwatched harness code (a HarnessScope,
// enter_unwatched_harness()): its atomics are done natively
// (interpose_atomics.cc). Defined in interpose.cc.
extern constinit thread_local int t_unwatched_depth;

// The real function: TSan's or ASan's interceptor when the runtime has one,
// else the next definition after this executable's (libc's).
template <class F>
F resolve(F interceptor, const char* name) {
  if (interceptor != nullptr) return interceptor;
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace racelab::interpose_internal

// Declares the interceptor (weak: absent in builds without the sanitizer) and
// a cached pointer to the real function, real_<name>() (in an unnamed
// namespace: each file that uses it has its own cache).
#define RACELAB_REAL(ret, name, params)                             \
  extern "C" ret __interceptor_##name params __attribute__((weak)); \
  namespace {                                                       \
  using name##_fn = ret(*) params;                                  \
  name##_fn real_##name() {                                         \
    static name##_fn fn = nullptr;                                  \
    name##_fn found = __atomic_load_n(&fn, __ATOMIC_RELAXED);       \
    if (found == nullptr) {                                         \
      found = racelab::interpose_internal::resolve<name##_fn>(      \
          &__interceptor_##name, #name);                            \
      __atomic_store_n(&fn, found, __ATOMIC_RELAXED);               \
    }                                                               \
    return found;                                                   \
  }                                                                 \
  }

// Around the extern "C" definitions of the interposed calls: weak, so that a
// program's own global of the same name (a variable `send`, as
// ThreadSanitizer's weak interceptors allow) wins and the program links. They
// still come before the sanitizer's own weak interceptors, whose runtime
// racelab_sync's link options place after racelab's libraries
// (sanitizers/SanitizerRuntimeLink.cmake); where they cannot (the fuzz presets)
// RACELAB_WEAK_INTERPOSERS is 0 and the definitions stay strong. A definition
// here calls another interposed name only through a function of its own file:
// that name may be the program's.
#if RACELAB_WEAK_INTERPOSERS
#define RACELAB_BEGIN_INTERPOSED \
  _Pragma("clang attribute push(__attribute__((weak)), apply_to = function)")
#define RACELAB_END_INTERPOSED _Pragma("clang attribute pop")
#else
#define RACELAB_BEGIN_INTERPOSED
#define RACELAB_END_INTERPOSED
#endif

#endif  // RACELAB_SYNC_INTERPOSE_COMMON_H_
