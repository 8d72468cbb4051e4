// The interposed pthread barrier, POSIX semaphore and non-portable join calls
// (the mechanism: interpose.cc). Under control each is a scheduling point at
// its entry that names what it touches (the barrier, the semaphore, the
// thread), and a thread that would wait in one is blocked in the scheduler
// instead (docs/controlled-mode.md, "Blocking and fairness"):
//
// - A semaphore's count is glibc's own: sem_wait waits in the scheduler while
//   it is zero, then makes the real call (TSan's interceptor, which records
//   the acquire), which cannot block any more; a post wakes every waiter, and
//   those that find the count zero again wait again. A timed wait may time
//   out instead, as the timed locks do (Timeout: near deadlines at the
//   scheduler's choice, far ones only when no thread can go on).
// - A barrier counts its waiters in the scheduler: the `count`-th arrival
//   opens it and returns PTHREAD_BARRIER_SERIAL_THREAD (as glibc's last
//   arrival does), the others 0. The real pthread_barrier_wait is never
//   called: under the baton it would block the first thread to call it,
//   which holds the turn the others need to arrive. TSan sees the barrier's
//   edges through its annotations instead, as its interceptor makes them: a
//   release on the barrier's address at each arrival and an acquire at each
//   departure (every arrival happens before the last one, which happens
//   before any departure), and a read of the barrier at both (so that
//   destroying it while a thread waits is a race, as without racelab).
// - pthread_timedjoin_np and pthread_clockjoin_np join with a timeout, as
//   the timed waits do; pthread_tryjoin_np looks once. Once the thread has
//   finished, the real pthread_join (TSan's) joins it and records the edge.
//
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"

using racelab::JoinWait;
using racelab::PointAccess;
using racelab::PointEffect;
using racelab::SchedulingHooks;
using racelab::Timeout;
using racelab::interpose_internal::controlling;
using racelab::interpose_internal::timeout_at;

// TSan's annotations (weak: absent in builds without TSan).
extern "C" void __tsan_acquire(void* address) __attribute__((weak));
extern "C" void __tsan_release(void* address) __attribute__((weak));
extern "C" void __tsan_read1(void* address) __attribute__((weak));

RACELAB_REAL(int, pthread_barrier_init,
             (pthread_barrier_t*, const pthread_barrierattr_t*, unsigned))
RACELAB_REAL(int, pthread_barrier_wait, (pthread_barrier_t*))
RACELAB_REAL(int, pthread_barrier_destroy, (pthread_barrier_t*))
RACELAB_REAL(int, sem_wait, (sem_t*))
RACELAB_REAL(int, sem_trywait, (sem_t*))
RACELAB_REAL(int, sem_timedwait, (sem_t*, const struct timespec*))
RACELAB_REAL(int, sem_clockwait, (sem_t*, clockid_t, const struct timespec*))
RACELAB_REAL(int, sem_post, (sem_t*))
RACELAB_REAL(int, pthread_join, (pthread_t, void**))
RACELAB_REAL(int, pthread_tryjoin_np, (pthread_t, void**))
RACELAB_REAL(int, pthread_timedjoin_np,
             (pthread_t, void**, const struct timespec*))
RACELAB_REAL(int, pthread_clockjoin_np,
             (pthread_t, void**, clockid_t, const struct timespec*))

namespace {

PointAccess barrier_access(const void* barrier) {
  return {racelab::ObjectKind::kBarrier, barrier, racelab::AccessKind::kWrite};
}
PointAccess semaphore_access(const void* sem) {
  return {racelab::ObjectKind::kSemaphore, sem, racelab::AccessKind::kWrite};
}

// glibc's struct pthread_barrier (nptl/pthreadP.h, since 2.23): in,
// current_round, count, shared, out; `count` as pthread_barrier_init set it.
unsigned barrier_count(const pthread_barrier_t* barrier) {
  const auto* words = reinterpret_cast<const unsigned*>(barrier);
  return __atomic_load_n(&words[2], __ATOMIC_RELAXED);
}

// A semaphore's count, asked of glibc's own sem_getvalue (TSan's would
// record an acquire).
int semaphore_value(sem_t* sem) {
  using getvalue_fn = int (*)(sem_t*, int*);
  static const auto getvalue =
      reinterpret_cast<getvalue_fn>(dlsym(RTLD_NEXT, "sem_getvalue"));
  int value = 0;
  getvalue(sem, &value);
  return value;
}

void tsan_read(void* address) {
  if (&__tsan_read1 != nullptr) __tsan_read1(address);
}

bool valid_deadline(const struct timespec* at) {
  return at->tv_nsec >= 0 && at->tv_nsec < 1000000000;
}

bool clock_supported(clockid_t clock) {
  return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC;
}

// Takes one from `sem`: a point, then blocked in the scheduler while the
// count is zero (a timed `timeout`: or until the wait times out), then
// `take`, the real call, which cannot wait any more. For the fairness bound
// the point changes something only once the take succeeds (as a
// compare-and-swap's): a loop of timed waits that time out is a spin.
template <class Take>
int semaphore_take(SchedulingHooks* hooks, sem_t* sem, const char* point,
                   Timeout timeout, Take take) {
  hooks->access_point(point, PointEffect::kNoProgress, semaphore_access(sem),
                      racelab::PointKind::kInner);
  while (semaphore_value(sem) <= 0) {
    // Every caller is a cancellation point: a request that came before the
    // wait, or woke it, is acted on here.
    pthread_testcancel();
    if (hooks->object_wait(semaphore_access(sem), timeout)) {
      errno = ETIMEDOUT;
      return -1;
    }
  }
  const int result = take();
  if (result == 0) hooks->progressed();
  return result;
}

// A join with a timeout: ETIMEDOUT when it times out.
int timed_join(SchedulingHooks* hooks, pthread_t thread, void** result,
               Timeout timeout, bool* ours) {
  bool joined = false;
  *ours = hooks->join(thread, JoinWait::kTimed, &joined, timeout);
  if (!*ours) return 0;
  pthread_testcancel();  // a cancellation point, which a request may wake
  return joined ? real_pthread_join()(thread, result) : ETIMEDOUT;
}

}  // namespace

RACELAB_BEGIN_INTERPOSED
extern "C" {

// Initializing and destroying a barrier touch it: points before, so that
// partial-order reduction orders them against its waits.
int pthread_barrier_init(pthread_barrier_t* barrier,
                         const pthread_barrierattr_t* attr, unsigned count) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point("barrier_init", PointEffect::kProgress,
                        barrier_access(barrier), racelab::PointKind::kInner);
  }
  return real_pthread_barrier_init()(barrier, attr, count);
}

int pthread_barrier_destroy(pthread_barrier_t* barrier) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point("barrier_destroy", PointEffect::kProgress,
                        barrier_access(barrier), racelab::PointKind::kInner);
  }
  return real_pthread_barrier_destroy()(barrier);
}

int pthread_barrier_wait(pthread_barrier_t* barrier) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_barrier_wait()(barrier);
  hooks->access_point("barrier_wait", PointEffect::kProgress,
                      barrier_access(barrier), racelab::PointKind::kInner);
  tsan_read(barrier);
  if (&__tsan_release != nullptr) __tsan_release(barrier);
  const bool last = static_cast<unsigned>(hooks->object_waiters(barrier)) + 1 >=
                    barrier_count(barrier);
  if (last) {
    hooks->wake_object(barrier, SchedulingHooks::kEveryWaiter);
  } else {
    hooks->object_wait(barrier_access(barrier), Timeout{});
  }
  tsan_read(barrier);
  if (&__tsan_acquire != nullptr) __tsan_acquire(barrier);
  return last ? PTHREAD_BARRIER_SERIAL_THREAD : 0;
}

int sem_wait(sem_t* sem) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_sem_wait()(sem);
  return semaphore_take(hooks, sem, "sem_wait", Timeout{},
                        [&] { return real_sem_wait()(sem); });
}

// Fails with EAGAIN on a zero count without waiting: a poll, no progress
// unless it took one.
int sem_trywait(sem_t* sem) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_sem_trywait()(sem);
  hooks->access_point("sem_trywait", PointEffect::kNoProgress,
                      semaphore_access(sem), racelab::PointKind::kInner);
  const int result = real_sem_trywait()(sem);
  if (result == 0) hooks->progressed();
  return result;
}

// An invalid deadline (or clock) fails at once with EINVAL in glibc, before
// any wait: the real call answers it.
int sem_timedwait(sem_t* sem, const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || !valid_deadline(at)) {
    return real_sem_timedwait()(sem, at);
  }
  return semaphore_take(hooks, sem, "sem_timedwait",
                        timeout_at(CLOCK_REALTIME, at),
                        [&] { return real_sem_timedwait()(sem, at); });
}

// TSan 14 does not intercept sem_clockwait: once the count is positive, its
// sem_timedwait takes one (it cannot wait, so the clock does not matter) and
// records the acquire.
int sem_clockwait(sem_t* sem, clockid_t clock, const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || !clock_supported(clock) || !valid_deadline(at)) {
    return real_sem_clockwait()(sem, clock, at);
  }
  return semaphore_take(hooks, sem, "sem_clockwait", timeout_at(clock, at),
                        [&] { return real_sem_timedwait()(sem, at); });
}

int sem_post(sem_t* sem) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_sem_post()(sem);
  hooks->access_point("sem_post", PointEffect::kProgress, semaphore_access(sem),
                      racelab::PointKind::kInner);
  const int result = real_sem_post()(sem);
  if (result == 0) hooks->wake_object(sem, SchedulingHooks::kEveryWaiter);
  return result;
}

int pthread_tryjoin_np(pthread_t thread, void** result) {
  SchedulingHooks* hooks = controlling();
  bool joined = false;
  if (hooks == nullptr || !hooks->join(thread, JoinWait::kTry, &joined)) {
    return real_pthread_tryjoin_np()(thread, result);
  }
  return joined ? real_pthread_join()(thread, result) : EBUSY;
}

int pthread_timedjoin_np(pthread_t thread, void** result,
                         const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  bool ours = false;
  if (hooks != nullptr) {
    const int joined = timed_join(hooks, thread, result,
                                  timeout_at(CLOCK_REALTIME, at), &ours);
    if (ours) return joined;
  }
  return real_pthread_timedjoin_np()(thread, result, at);
}

int pthread_clockjoin_np(pthread_t thread, void** result, clockid_t clock,
                         const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  bool ours = false;
  if (hooks != nullptr && clock_supported(clock)) {
    const int joined =
        timed_join(hooks, thread, result, timeout_at(clock, at), &ours);
    if (ours) return joined;
  }
  return real_pthread_clockjoin_np()(thread, result, clock, at);
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab_sync, as interpose.cc's anchor.
extern "C" const char racelab_interpose_waits_anchor = 0;
