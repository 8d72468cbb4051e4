// The interposed pthread mutex, rwlock and condition-variable calls (the
// mechanism: interpose.cc). Under control, each is a scheduling point at its
// entry, before the thread does what another thread can observe (takes,
// releases or destroys the lock, registers as a waiter, notifies), and a lock
// is modelled by the scheduler: a thread whose real lock call would block is
// blocked in the scheduler instead, and once the lock is free the thread
// takes it with the very call the program made, through TSan's interceptor,
// so that TSan follows a lock as it does without racelab (its lock-order
// detector, its reports of misuse such as locking a destroyed mutex). The
// audit of where each call's point sits: docs/controlled-mode.md.
//
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"

using racelab::LockMode;
using racelab::PointEffect;
using racelab::SchedulingHooks;
using racelab::Timeout;
using racelab::interpose_internal::capture_call_sites;
using racelab::interpose_internal::cond_clock;
using racelab::interpose_internal::controlling;
using racelab::interpose_internal::timeout_at;

RACELAB_REAL(int, pthread_mutex_lock, (pthread_mutex_t*))
RACELAB_REAL(int, pthread_mutex_trylock, (pthread_mutex_t*))
RACELAB_REAL(int, pthread_mutex_timedlock,
             (pthread_mutex_t*, const struct timespec*))
RACELAB_REAL(int, pthread_mutex_clocklock,
             (pthread_mutex_t*, clockid_t, const struct timespec*))
RACELAB_REAL(int, pthread_mutex_unlock, (pthread_mutex_t*))
RACELAB_REAL(int, pthread_mutex_destroy, (pthread_mutex_t*))
RACELAB_REAL(int, pthread_rwlock_rdlock, (pthread_rwlock_t*))
RACELAB_REAL(int, pthread_rwlock_wrlock, (pthread_rwlock_t*))
RACELAB_REAL(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t*))
RACELAB_REAL(int, pthread_rwlock_trywrlock, (pthread_rwlock_t*))
RACELAB_REAL(int, pthread_rwlock_timedrdlock,
             (pthread_rwlock_t*, const struct timespec*))
RACELAB_REAL(int, pthread_rwlock_timedwrlock,
             (pthread_rwlock_t*, const struct timespec*))
RACELAB_REAL(int, pthread_rwlock_clockrdlock,
             (pthread_rwlock_t*, clockid_t, const struct timespec*))
RACELAB_REAL(int, pthread_rwlock_clockwrlock,
             (pthread_rwlock_t*, clockid_t, const struct timespec*))
RACELAB_REAL(int, pthread_rwlock_unlock, (pthread_rwlock_t*))
RACELAB_REAL(int, pthread_cond_wait, (pthread_cond_t*, pthread_mutex_t*))
RACELAB_REAL(int, pthread_cond_timedwait,
             (pthread_cond_t*, pthread_mutex_t*, const struct timespec*))
RACELAB_REAL(int, pthread_cond_clockwait,
             (pthread_cond_t*, pthread_mutex_t*, clockid_t,
              const struct timespec*))
RACELAB_REAL(int, pthread_cond_signal, (pthread_cond_t*))
RACELAB_REAL(int, pthread_cond_broadcast, (pthread_cond_t*))

namespace {

// glibc's own rwlock try-lock and unlock, which TSan does not see: the probe
// of whether a real rwlock call would block.
using rwlock_fn = int (*)(pthread_rwlock_t*);
rwlock_fn glibc_rwlock(const char* name) {
  return reinterpret_cast<rwlock_fn>(dlsym(RTLD_NEXT, name));
}
rwlock_fn glibc_tryrdlock() {
  static const rwlock_fn fn = glibc_rwlock("pthread_rwlock_tryrdlock");
  return fn;
}
rwlock_fn glibc_trywrlock() {
  static const rwlock_fn fn = glibc_rwlock("pthread_rwlock_trywrlock");
  return fn;
}
rwlock_fn glibc_rwunlock() {
  static const rwlock_fn fn = glibc_rwlock("pthread_rwlock_unlock");
  return fn;
}

// What taking or releasing `lock` in `mode` touches: shared ones commute.
racelab::PointAccess lock_access(const void* lock, LockMode mode) {
  return {racelab::ObjectKind::kLock, lock,
          mode == LockMode::kShared ? racelab::AccessKind::kRead
                                    : racelab::AccessKind::kWrite};
}

// The release is recorded by the hook (released()); the step after the point
// touches nothing of the lock's.
constexpr racelab::PointAccess kAfterUnlock = racelab::PointAccess::none();

racelab::PointAccess cond_access(const void* cond) {
  return {racelab::ObjectKind::kCondition, cond, racelab::AccessKind::kWrite};
}

// glibc's mutex word (nptl/pthread_mutex_lock.c, pthreadP.h): the kind's low
// bits, and the flags of robust, priority-inheriting and priority-protecting
// mutexes, whose __lock holds the owner's thread id (and, when protecting,
// the priority ceiling in its high bits).
constexpr int kKindMask = 3;
constexpr int kRobust = 16;
constexpr int kPrioInherit = 32;
constexpr int kPrioProtect = 64;
constexpr unsigned kTidMask = 0x3fffffffu;
constexpr unsigned kCeilingMask = 0xfff80000u;

// Whether `mu` is a robust mutex (its owner's end releases it: EOWNERDEAD).
bool robust(const pthread_mutex_t* mu) {
  const int kind = __atomic_load_n(&mu->__data.__kind, __ATOMIC_RELAXED);
  return kind >= 0 && (kind & kRobust) != 0;
}

// A robust mutex whose holders in the run ended: wait until the kernel has
// marked it, so that the real call answers EOWNERDEAD (or, for a mutex
// unlocked inconsistent, ENOTRECOVERABLE) whatever the timing.
void settle(SchedulingHooks* hooks, pthread_mutex_t* mu) {
  if (robust(mu)) hooks->settle_robust_lock(mu);
}

// Whether glibc's pthread_mutex_lock of `mu` by the calling logical thread
// would wait. It does not when the mutex is free (or its robust owner died:
// EOWNERDEAD), when it is invalid (pthread_mutex_destroy set its kind to -1:
// EINVAL), or when the caller holds a recursive mutex (it counts) or an
// error-checking one (EDEADLK). A normal mutex the caller holds would wait
// for ever: that stays a blocked thread, and so a deadlock finding.
bool mutex_would_block(SchedulingHooks* hooks, pthread_mutex_t* mu) {
  const int kind = __atomic_load_n(&mu->__data.__kind, __ATOMIC_RELAXED);
  if (kind < 0) return false;
  const auto word = static_cast<unsigned>(
      __atomic_load_n(&mu->__data.__lock, __ATOMIC_RELAXED));
  unsigned held = word;
  if ((kind & kPrioProtect) != 0) {
    held = word & ~kCeilingMask;
  } else if ((kind & (kRobust | kPrioInherit)) != 0) {
    held = word & kTidMask;
  }
  if (held == 0) return false;
  const int type = kind & kKindMask;
  if (type == PTHREAD_MUTEX_RECURSIVE_NP ||
      type == PTHREAD_MUTEX_ERRORCHECK_NP) {
    return !hooks->holds_exclusively(mu);
  }
  return true;
}

// Whether glibc's rdlock (shared) or wrlock of `rw` would wait: asked of
// glibc's own try-lock, undone at once, neither seen by TSan. A writer that
// asks again gets EDEADLK at once.
bool rwlock_would_block(SchedulingHooks* hooks, pthread_rwlock_t* rw,
                        LockMode mode) {
  if (hooks->holds_exclusively(rw)) return false;
  const int result =
      mode == LockMode::kShared ? glibc_tryrdlock()(rw) : glibc_trywrlock()(rw);
  if (result == 0) glibc_rwunlock()(rw);
  return result == EBUSY;
}

// Takes a lock: a scheduling point, then blocked in the scheduler while the
// real call would wait, then the real call (TSan's interceptor), which cannot
// wait any more. A timed `timeout`: the wait may end instead (ETIMEDOUT).
// A lock busy with no holder in the run is held by a thread outside it: the
// real call waits for that thread's release in the kernel, where the watch
// of unmodelled blocks lets the rest of the run go on if the wait lasts.
template <class WouldBlock, class Lock>
int take(SchedulingHooks* hooks, const void* lock, LockMode mode,
         const char* point, WouldBlock would_block, Lock real_lock,
         Timeout timeout, const char* name) {
  hooks->access_point(point, PointEffect::kProgress, lock_access(lock, mode),
                      racelab::PointKind::kInner);
  while (would_block() && hooks->held_in_run(lock)) {
    if (hooks->block_on(lock, name, mode, timeout)) return ETIMEDOUT;
  }
  const int result = real_lock();
  if (result == 0 || result == EOWNERDEAD) hooks->acquired(lock, name, mode);
  return result;
}

int try_take(SchedulingHooks* hooks, const void* lock, LockMode mode,
             const char* name, int result) {
  if (result == 0 || result == EOWNERDEAD) hooks->acquired(lock, name, mode);
  return result;
}

// Stress mode's self-deadlock check of a mutex (glibc: the kind's low bits
// say whether it is recursive).

// `real_lock` is the call the program made (lock, timedlock), or TSan's
// timedlock for a clocklock, which TSan 14 does not intercept (TSan then sees
// the acquisition as it sees a timedlock's).
template <class Lock>
int lock_mutex(SchedulingHooks* hooks, pthread_mutex_t* mu, Lock real_lock,
               Timeout timeout) {
  return take(
      hooks, mu, LockMode::kExclusive, "lock",
      [&] {
        settle(hooks, mu);
        return mutex_would_block(hooks, mu);
      },
      real_lock, timeout, racelab::kUnnamedMutex);
}

int relock(SchedulingHooks* hooks, pthread_mutex_t* mu) {
  return lock_mutex(
      hooks, mu, [&] { return real_pthread_mutex_lock()(mu); }, Timeout{});
}

// A condition-variable wait. Its scheduling point is at the entry, before
// the unlock and the registration as a waiter: another thread can come
// between the caller's check of its predicate and its wait (a flag set and
// notified without the lock is then lost). The step after the point releases
// the mutex and waits on `cond` (the hooks record both), so partial-order
// reduction sees it depend on both.
// A wait is a cancellation point: a request that came before the wait, or
// one that woke it (SchedulingHooks::cancel), is acted on with the mutex held,
// as POSIX has it, so the thread's cleanup handlers run with the lock.
int wait_on(pthread_cond_t* cond, pthread_mutex_t* mu, Timeout timeout) {
  SchedulingHooks* hooks = controlling();
  hooks->access_point("cond_wait", PointEffect::kProgress,
                      lock_access(mu, LockMode::kExclusive),
                      racelab::PointKind::kInner);
  pthread_testcancel();  // a request from before the wait
  real_pthread_mutex_unlock()(mu);
  hooks->released(mu, LockMode::kExclusive);
  const bool timed_out = hooks->cond_wait(cond, timeout);
  relock(hooks, mu);
  pthread_testcancel();
  return timed_out ? ETIMEDOUT : 0;
}

}  // namespace

// The stress-mode helpers live in racelab's namespace, so that a lock's
// call stack, read from the first frame outside racelab, skips them.
namespace racelab::interpose_internal {
namespace {

void stress_before_mutex_lock(pthread_mutex_t* mu) {
  const bool recursive = (mu->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP;
  stress_before_lock(mu, racelab::kUnnamedMutex, LockMode::kExclusive,
                     recursive);
}

// Stress mode: the wait is in the table of lock waits (the mutex released
// meanwhile), for a hang to name it.
template <class Wait>
int stress_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mu, Wait wait) {
  stress_cond_wait_begins(cond, mu);
  const int result = wait();
  stress_cond_wait_ends(mu);
  return result;
}

}  // namespace
}  // namespace racelab::interpose_internal

RACELAB_BEGIN_INTERPOSED
extern "C" {

int pthread_mutex_lock(pthread_mutex_t* mu) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) {
    racelab::interpose_internal::stress_lock_point("lock");
    racelab::interpose_internal::stress_before_mutex_lock(mu);
    const int result = real_pthread_mutex_lock()(mu);
    if (result == 0) racelab::interpose_internal::stress_after_lock(mu);
    return result;
  }
  capture_call_sites();
  return relock(hooks, mu);
}

int pthread_mutex_trylock(pthread_mutex_t* mu) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_mutex_trylock()(mu);
  hooks->access_point("try_lock", PointEffect::kNoProgress,
                      lock_access(mu, LockMode::kExclusive),
                      racelab::PointKind::kInner);
  settle(hooks, mu);
  return try_take(hooks, mu, LockMode::kExclusive, racelab::kUnnamedMutex,
                  real_pthread_mutex_trylock()(mu));
}

int pthread_mutex_timedlock(pthread_mutex_t* mu, const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_mutex_timedlock()(mu, at);
  return lock_mutex(
      hooks, mu, [&] { return real_pthread_mutex_timedlock()(mu, at); },
      timeout_at(CLOCK_REALTIME, at));
}

int pthread_mutex_clocklock(pthread_mutex_t* mu, clockid_t clock,
                            const struct timespec* at) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_mutex_clocklock()(mu, clock, at);
  return lock_mutex(
      hooks, mu, [&] { return real_pthread_mutex_timedlock()(mu, at); },
      timeout_at(clock, at));
}

int pthread_mutex_unlock(pthread_mutex_t* mu) {
  SchedulingHooks* hooks = controlling();
  const int result = real_pthread_mutex_unlock()(mu);
  if (hooks == nullptr && result == 0) {
    racelab::interpose_internal::stress_after_unlock(mu);
  }
  if (hooks != nullptr && result == 0) {
    hooks->released(mu, LockMode::kExclusive);
    hooks->access_point("unlock", PointEffect::kNoProgress, kAfterUnlock,
                        racelab::PointKind::kInner);
  }
  return result;
}

// Destroying a mutex publishes that it is no longer one (a later lock gets
// EINVAL, and TSan reports it): a point before, touching the lock.
int pthread_mutex_destroy(pthread_mutex_t* mu) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point("destroy", PointEffect::kProgress,
                        lock_access(mu, LockMode::kExclusive),
                        racelab::PointKind::kInner);
  }
  return real_pthread_mutex_destroy()(mu);
}

// `real_lock`: as lock_mutex's (clock* calls take TSan's timed* ones);
// `timed`: the Timeout.
#define RACELAB_RWLOCK_TAKE(name, mode, point, real_lock, timed, params, args) \
  int name params {                                                            \
    SchedulingHooks* hooks = controlling();                                    \
    if (hooks == nullptr) {                                                    \
      racelab::interpose_internal::stress_lock_point(point);                   \
      racelab::interpose_internal::stress_before_lock(                         \
          rw, racelab::kUnnamedSharedMutex, mode);                             \
      const int result = real_##name() args;                                   \
      if (result == 0) racelab::interpose_internal::stress_after_lock(rw);     \
      return result;                                                           \
    }                                                                          \
    capture_call_sites();                                                      \
    return take(                                                               \
        hooks, rw, mode, point,                                                \
        [&] { return rwlock_would_block(hooks, rw, mode); },                   \
        [&] { return real_lock; }, timed, racelab::kUnnamedSharedMutex);       \
  }

RACELAB_RWLOCK_TAKE(pthread_rwlock_rdlock, LockMode::kShared, "lock_shared",
                    real_pthread_rwlock_rdlock()(rw), Timeout{},
                    (pthread_rwlock_t * rw), (rw))
RACELAB_RWLOCK_TAKE(pthread_rwlock_wrlock, LockMode::kExclusive, "lock",
                    real_pthread_rwlock_wrlock()(rw), Timeout{},
                    (pthread_rwlock_t * rw), (rw))
RACELAB_RWLOCK_TAKE(pthread_rwlock_timedrdlock, LockMode::kShared,
                    "lock_shared", real_pthread_rwlock_timedrdlock()(rw, at),
                    timeout_at(CLOCK_REALTIME, at),
                    (pthread_rwlock_t * rw, const struct timespec* at),
                    (rw, at))
RACELAB_RWLOCK_TAKE(pthread_rwlock_timedwrlock, LockMode::kExclusive, "lock",
                    real_pthread_rwlock_timedwrlock()(rw, at),
                    timeout_at(CLOCK_REALTIME, at),
                    (pthread_rwlock_t * rw, const struct timespec* at),
                    (rw, at))
RACELAB_RWLOCK_TAKE(pthread_rwlock_clockrdlock, LockMode::kShared,
                    "lock_shared", real_pthread_rwlock_timedrdlock()(rw, at),
                    timeout_at(clock, at),
                    (pthread_rwlock_t * rw, clockid_t clock,
                     const struct timespec* at),
                    (rw, clock, at))
RACELAB_RWLOCK_TAKE(pthread_rwlock_clockwrlock, LockMode::kExclusive, "lock",
                    real_pthread_rwlock_timedwrlock()(rw, at),
                    timeout_at(clock, at),
                    (pthread_rwlock_t * rw, clockid_t clock,
                     const struct timespec* at),
                    (rw, clock, at))
#undef RACELAB_RWLOCK_TAKE

int pthread_rwlock_tryrdlock(pthread_rwlock_t* rw) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_rwlock_tryrdlock()(rw);
  hooks->access_point("try_lock_shared", PointEffect::kNoProgress,
                      lock_access(rw, LockMode::kShared),
                      racelab::PointKind::kInner);
  return try_take(hooks, rw, LockMode::kShared, racelab::kUnnamedSharedMutex,
                  real_pthread_rwlock_tryrdlock()(rw));
}

int pthread_rwlock_trywrlock(pthread_rwlock_t* rw) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_pthread_rwlock_trywrlock()(rw);
  hooks->access_point("try_lock", PointEffect::kNoProgress,
                      lock_access(rw, LockMode::kExclusive),
                      racelab::PointKind::kInner);
  return try_take(hooks, rw, LockMode::kExclusive, racelab::kUnnamedSharedMutex,
                  real_pthread_rwlock_trywrlock()(rw));
}

int pthread_rwlock_unlock(pthread_rwlock_t* rw) {
  SchedulingHooks* hooks = controlling();
  const int result = real_pthread_rwlock_unlock()(rw);
  if (hooks == nullptr && result == 0) {
    racelab::interpose_internal::stress_after_unlock(rw);
  }
  if (hooks != nullptr && result == 0) {
    // The scheduler knows in which mode this thread held it.
    hooks->released(rw, LockMode::kExclusive);
    hooks->access_point("unlock", PointEffect::kNoProgress, kAfterUnlock,
                        racelab::PointKind::kInner);
  }
  return result;
}

int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mu) {
  if (controlling() == nullptr) {
    return racelab::interpose_internal::stress_cond_wait(
        cond, mu, [&] { return real_pthread_cond_wait()(cond, mu); });
  }
  return wait_on(cond, mu, Timeout{});
}

int pthread_cond_timedwait(pthread_cond_t* cond, pthread_mutex_t* mu,
                           const struct timespec* at) {
  if (controlling() == nullptr) {
    return racelab::interpose_internal::stress_cond_wait(
        cond, mu, [&] { return real_pthread_cond_timedwait()(cond, mu, at); });
  }
  return wait_on(cond, mu, timeout_at(cond_clock(cond), at));
}

int pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mu,
                           clockid_t clock, const struct timespec* at) {
  if (controlling() == nullptr) {
    return racelab::interpose_internal::stress_cond_wait(cond, mu, [&] {
      return real_pthread_cond_clockwait()(cond, mu, clock, at);
    });
  }
  return wait_on(cond, mu, timeout_at(clock, at));
}

int pthread_cond_signal(pthread_cond_t* cond) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point("notify_one", PointEffect::kProgress, cond_access(cond),
                        racelab::PointKind::kInner);
    hooks->cond_notify(cond, false);
  }
  return real_pthread_cond_signal()(cond);
}

int pthread_cond_broadcast(pthread_cond_t* cond) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point("notify_all", PointEffect::kProgress, cond_access(cond),
                        racelab::PointKind::kInner);
    hooks->cond_notify(cond, true);
  }
  return real_pthread_cond_broadcast()(cond);
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab_sync, as interpose.cc's anchor.
extern "C" const char racelab_interpose_locks_anchor = 0;
