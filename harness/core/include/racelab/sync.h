// Named, annotated lock types: optional for subjects and stores.
//
// Plain std::mutex and std::shared_mutex are scheduling points in controlled
// mode by themselves (interposed: src/sync/interpose.cc, interpose_locks.cc).
// racelab::Mutex and racelab::SharedMutex wrap them to add two things:
// clang's thread-safety annotations, so a store built with -Wthread-safety
// proves its locking at compile time (libstdc++'s std::mutex carries none),
// and a name that traces and deadlock reports show instead of "mutex 1". In
// stress mode they also report a thread that requests a lock it already
// holds instead of hanging.
#ifndef RACELAB_SYNC_H_
#define RACELAB_SYNC_H_

#include <mutex>
#include <shared_mutex>
#if defined(_LIBCPP_VERSION)
#include <pthread.h>
#endif

#include "absl/base/thread_annotations.h"
#include "racelab/internal/scheduling_hooks.h"

namespace racelab {

// A scheduling point for user code: in controlled mode the scheduler may switch
// threads here; in stress mode it runs the stress yield hook, if any.
void yield_point(const char* what = "yield_point");
// The same, for a point whose next step touches `access`, of the given kind
// (the engine's operation starts and an operation's pauses).
void yield_point(const char* what, PointAccess access,
                 PointKind kind = PointKind::kInner);

// What an operation's call and its return touch: the history's clock. The
// history's real-time order is the set of pairs "A returned before B was
// called", so a call and a return of different threads are dependent, while
// two calls, or two returns, commute (scheduling_hooks.h: dependent()). Both
// are independent of everything else.
inline constexpr PointAccess kOperationCall{ObjectKind::kOperations, nullptr,
                                            AccessKind::kRead};
inline constexpr PointAccess kOperationReturn{ObjectKind::kOperations, nullptr,
                                              AccessKind::kWrite};

namespace sync_internal {
#if defined(_LIBCPP_VERSION)
// libc++ builds std::shared_mutex from a mutex and a condition variable, so
// every lock_shared and unlock_shared goes through one mutex, and TSan sees
// each reader synchronize with the readers before it: races between two
// readers (a "read-only" section that writes) vanish whenever their sections
// do not overlap in time, that is always in controlled mode. A pthread
// rwlock, which TSan models as a reader-writer lock (as libstdc++'s
// std::shared_mutex is one), keeps them visible.
class RwLock {
 public:
  RwLock() = default;
  RwLock(const RwLock&) = delete;
  RwLock& operator=(const RwLock&) = delete;
  ~RwLock() { pthread_rwlock_destroy(&rw_); }

  void lock() { pthread_rwlock_wrlock(&rw_); }
  bool try_lock() { return pthread_rwlock_trywrlock(&rw_) == 0; }
  void unlock() { pthread_rwlock_unlock(&rw_); }
  void lock_shared() { pthread_rwlock_rdlock(&rw_); }
  bool try_lock_shared() { return pthread_rwlock_tryrdlock(&rw_) == 0; }
  void unlock_shared() { pthread_rwlock_unlock(&rw_); }

 private:
  pthread_rwlock_t rw_ = PTHREAD_RWLOCK_INITIALIZER;
};
using SharedMutexImpl = RwLock;
#else
using SharedMutexImpl = std::shared_mutex;
#endif

// Stress-mode bookkeeping of the locks the calling OS thread holds, used to
// report a thread that requests a lock it already holds instead of hanging.
void before_lock(const void* lock, const char* name, LockMode mode);
void after_unlock(const void* lock);
// Whether the calling OS thread holds a lock (stress mode's bookkeeping).
bool holds_a_lock();
}  // namespace sync_internal

class ABSL_LOCKABLE Mutex {
 public:
  explicit Mutex(const char* name = "mutex");
  ~Mutex();
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION();
  void unlock() ABSL_UNLOCK_FUNCTION();
  bool try_lock() ABSL_EXCLUSIVE_TRYLOCK_FUNCTION(true);

  const char* name() const { return name_; }

 private:
  std::mutex mu_;
  const char* name_;
};

class ABSL_LOCKABLE SharedMutex {
 public:
  explicit SharedMutex(const char* name = "shared_mutex");
  ~SharedMutex();
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION();
  void unlock() ABSL_UNLOCK_FUNCTION();
  void lock_shared() ABSL_SHARED_LOCK_FUNCTION();
  void unlock_shared() ABSL_UNLOCK_FUNCTION();

  const char* name() const { return name_; }

 private:
  sync_internal::SharedMutexImpl mu_;
  const char* name_;
};

// Holds a Mutex (or a SharedMutex exclusively) for its scope.
template <class M>
class ABSL_SCOPED_LOCKABLE BasicMutexLock {
 public:
  explicit BasicMutexLock(M& mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_.lock();
  }
  ~BasicMutexLock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  BasicMutexLock(const BasicMutexLock&) = delete;
  BasicMutexLock& operator=(const BasicMutexLock&) = delete;

 private:
  M& mu_;
};

using MutexLock = BasicMutexLock<Mutex>;
using WriterLock = BasicMutexLock<SharedMutex>;

// Holds a SharedMutex in shared mode for its scope.
class ABSL_SCOPED_LOCKABLE ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_.lock_shared();
  }
  ~ReaderLock() ABSL_UNLOCK_FUNCTION() { mu_.unlock_shared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

}  // namespace racelab

#endif  // RACELAB_SYNC_H_
