// Link-time interposition of the primitives that std::mutex,
// std::shared_mutex, std::condition_variable, std::thread, std::atomic,
// std::this_thread::yield and sleep_for reach, so that unmodified code gets
// scheduling points in controlled mode. This file: the hooks' installation,
// threads, yields and sleeps; interpose_atomics.cc: TSan's atomic entry
// points; interpose_locks.cc: mutexes, rwlocks and condition variables;
// interpose_waits.cc: barriers, semaphores and the non-portable joins.
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
void note_thread_outside_the_run();
void note_progress() {
  __atomic_add_fetch(&g_progress_steps, 1, __ATOMIC_RELAXED);
}
std::uint64_t progress_steps() {
  return __atomic_load_n(&g_progress_steps, __ATOMIC_RELAXED);
}

SchedulingHooks* active_scheduling_hooks() {
  return __atomic_load_n(&g_hooks, __ATOMIC_ACQUIRE);
}
namespace {
bool g_outsiders = false;  // threads_outside_the_run_seen()
// Threads started before main (by a static constructor) that are still
// running, and whether main has been entered (note_main_entered).
int g_before_main_running = 0;
bool g_main_entered = false;
}  // namespace
void set_active_scheduling_hooks(SchedulingHooks* hooks) {
  if (hooks != nullptr) {
    // A thread started before main is outside every run from its start.
    __atomic_store_n(
        &g_outsiders,
        __atomic_load_n(&g_before_main_running, __ATOMIC_RELAXED) > 0,
        __ATOMIC_RELAXED);
  }
  __atomic_store_n(&g_hooks, hooks, __ATOMIC_RELEASE);
}
void note_main_entered() {
  __atomic_store_n(&g_main_entered, true, __ATOMIC_RELAXED);
}
bool threads_outside_the_run_seen() {
  return __atomic_load_n(&g_outsiders, __ATOMIC_RELAXED);
}
void note_thread_outside_the_run() {
  if (!__atomic_load_n(&g_outsiders, __ATOMIC_RELAXED)) {
    __atomic_store_n(&g_outsiders, true, __ATOMIC_RELAXED);
  }
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
thread_local bool t_in_run = false;
thread_local const void* t_call_sites[kCallSiteDepth + 1] = {};
}  // namespace
// Of t_harness_depth, TSan's unwatched (interpose_common.h).
constinit thread_local int t_unwatched_depth = 0;

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

__attribute__((noinline)) int return_addresses(const void** out, int max,
                                               int skip) {
  auto* frame = static_cast<void* const*>(__builtin_frame_address(0));
  int depth = 0;
  while (depth < max && frame != nullptr && frame[1] != nullptr) {
    if (skip > 0) {
      --skip;
    } else {
      out[depth++] = frame[1];
    }
    auto* next = static_cast<void* const*>(frame[0]);
    if (next <= frame || reinterpret_cast<const char*>(next) -
                                 reinterpret_cast<const char*>(frame) >
                             (1 << 20)) {
      break;
    }
    frame = next;
  }
  return depth;
}

// From the interposed function's caller.
__attribute__((noinline)) void capture_call_sites() {
  const int depth = return_addresses(t_call_sites, kCallSiteDepth, 1);
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
  stress_waits_for_lock(lock);
}
// Whatever the depth: a lock taken outside harness code may be released
// inside it.
void stress_after_unlock(const void* lock) {
  sync_internal::after_unlock(lock);
  stress_lock_released(lock);
}
bool in_harness_code() { return t_harness_depth > 0; }
}  // namespace racelab::interpose_internal

namespace racelab::interpose_internal {

SchedulingHooks* controlling() {
  int& depth = t_harness_depth;
  if (depth > 0) return nullptr;
  if (!t_in_run) {
    // A thread of the program outside the run, working while it runs.
    if (racelab::active_scheduling_hooks() != nullptr) {
      racelab::note_thread_outside_the_run();
    }
    return nullptr;
  }
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

// A sleep in controlled mode: time is the run's, and no real time passes. A
// sleep that ends within the horizon (kTimeoutHorizonNs) is a point where
// other threads may run (a yield); a longer one waits until no thread can go
// on without time passing, as a far deadline does; either returns with the
// run's clocks at its end (docs/controlled-mode.md, "Time"). `end`: its
// end, as a Timeout.
bool controlled_sleep(racelab::Timeout end) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return false;
  pthread_testcancel();  // a sleep is a cancellation point
  hooks->sleep_until(end);
  pthread_testcancel();  // a request that woke it
  return true;
}

// The whole-program runtime's main (program_main.cc), linked only into
// programs run under `racelab explore`.
extern "C" int __wrap_main(int, char**, char**) __attribute__((weak));

// A thread a static constructor starts: counted as running until its start
// routine returns or it exits (pthread_exit unwinds through Running), so
// that a run of main knows from its start that threads outside it work in
// real time beside it.
struct BeforeMainStart {
  void* (*start)(void*);
  void* arg;
};
void* run_before_main_thread(void* box) {
  const BeforeMainStart what = *static_cast<BeforeMainStart*>(box);
  delete static_cast<BeforeMainStart*>(box);
  struct Running {
    ~Running() {
      __atomic_sub_fetch(&racelab::g_before_main_running, 1, __ATOMIC_RELAXED);
    }
  } running;
  return what.start(what.arg);
}
int create_before_main(pthread_t* thread, const pthread_attr_t* attr,
                       void* (*start)(void*), void* arg) {
  auto* box = new BeforeMainStart{start, arg};
  __atomic_add_fetch(&racelab::g_before_main_running, 1, __ATOMIC_RELAXED);
  const int result =
      ::real_pthread_create()(thread, attr, run_before_main_thread, box);
  if (result != 0) {
    __atomic_sub_fetch(&racelab::g_before_main_running, 1, __ATOMIC_RELAXED);
    delete box;
  }
  return result;
}

racelab::Timeout sleep_of(std::int64_t seconds, long nanos) {
  const timespec duration{static_cast<time_t>(seconds), nanos};
  return racelab::interpose_internal::timeout_after(&duration);
}

}  // namespace

RACELAB_BEGIN_INTERPOSED
extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                   void* (*start)(void*), void* arg) {
  if (SchedulingHooks* hooks = controlling()) {
    int result = 0;
    if (hooks->spawn(thread, attr, start, arg, &result)) return result;
  }
  if (__wrap_main != nullptr &&
      !__atomic_load_n(&racelab::g_main_entered, __ATOMIC_RELAXED) &&
      !racelab::interpose_internal::in_harness_code()) {
    return create_before_main(thread, attr, start, arg);
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
  if (controlled_sleep(racelab::interpose_internal::timeout_after(duration))) {
    return 0;
  }
  return real_nanosleep()(duration, left);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec* at,
                    struct timespec* left) {
  const racelab::Timeout end =
      (flags & TIMER_ABSTIME) != 0
          ? racelab::interpose_internal::timeout_at(clock, at)
          : racelab::interpose_internal::timeout_after(at);
  if (controlled_sleep(end)) return 0;
  return real_clock_nanosleep()(clock, flags, at, left);
}

int usleep(useconds_t micros) {
  if (controlled_sleep(sleep_of(micros / 1000000, micros % 1000000 * 1000L))) {
    return 0;
  }
  return real_usleep()(micros);
}

unsigned sleep(unsigned seconds) {
  if (controlled_sleep(sleep_of(seconds, 0))) return 0;
  return real_sleep()(seconds);
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab_sync, so this object is always
// part of the executable even where nothing else pulls it from the archive.
extern "C" const char racelab_interpose_anchor = 0;
