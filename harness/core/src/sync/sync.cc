// Implementation of the sync layer's named lock types (std types with
// self-deadlock detection in stress mode), the hooks' registry and lock
// names.
#include "racelab/sync.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

#include "racelab/internal/progress.h"

namespace racelab {
namespace {

// Process-wide on purpose: every lock operation of every thread reads these
// hooks. The controlled scheduler installs its hooks for one run and removes
// them after it; a stress run installs its yield hook the same way
// (JitterScope); the self-deadlock handler is the process's (a case run's
// child reports and exits).
SelfDeadlockHandler g_self_deadlock_handler = nullptr;
StressYieldHook g_stress_yield_hook = nullptr;

// Locks held by this OS thread (stress mode only). A small fixed array: a
// subject that nests more locks than this is simply not tracked past it.
// Thread-local on purpose: held locks belong to the thread, and a stress
// run's threads end with the run (every lock they took is released first).
constexpr int kMaxHeld = 16;
struct HeldLock {
  const void* lock;
  LockMode mode;
};
thread_local HeldLock t_held[kMaxHeld];
thread_local int t_held_count = 0;

const char* mode_name(LockMode mode) {
  return mode == LockMode::kShared ? "shared" : "exclusive";
}

}  // namespace

void set_self_deadlock_handler(SelfDeadlockHandler handler) {
  g_self_deadlock_handler = handler;
}
void set_stress_yield_hook(StressYieldHook hook) {
  __atomic_store_n(&g_stress_yield_hook, hook, __ATOMIC_RELEASE);
}

namespace interpose_internal {
StressYieldHook stress_yield_hook() {
  return __atomic_load_n(&g_stress_yield_hook, __ATOMIC_ACQUIRE);
}

}  // namespace interpose_internal

void yield_point(const char* what) {
  if (SchedulingHooks* hooks = active_scheduling_hooks()) {
    hooks->yield_point(what);
  } else if (StressYieldHook hook =
                 __atomic_load_n(&g_stress_yield_hook, __ATOMIC_ACQUIRE)) {
    hook(what);
  }
}

void yield_point(const char* what, PointAccess access, PointKind kind) {
  if (SchedulingHooks* hooks = active_scheduling_hooks()) {
    hooks->access_point(what, PointEffect::kProgress, access, kind);
  } else if (StressYieldHook hook =
                 __atomic_load_n(&g_stress_yield_hook, __ATOMIC_ACQUIRE)) {
    hook(what);
  }
}

namespace sync_internal {

void before_lock(const void* lock, const char* name, LockMode mode) {
  for (int i = 0; i < t_held_count; ++i) {
    if (t_held[i].lock != lock) continue;
    // Re-acquiring a held std::mutex or std::shared_mutex never returns.
    std::string message = std::string("thread requests ") + mode_name(mode) +
                          " lock on '" + name + "' while it already holds it " +
                          mode_name(t_held[i].mode) +
                          ": self-deadlock (the lock is not re-entrant)";
    if (g_self_deadlock_handler != nullptr)
      g_self_deadlock_handler(message.c_str());
    std::fprintf(stderr, "racelab: %s\n", message.c_str());
    std::abort();
  }
  if (t_held_count < kMaxHeld) t_held[t_held_count++] = {lock, mode};
}

// The interposed primitives' held-lock check (interpose.cc decides when).
void before_interposed_lock(const void* lock, const char* name, LockMode mode,
                            bool recursive) {
  for (int i = 0; i < t_held_count; ++i) {
    if (t_held[i].lock != lock) continue;
    // A recursive mutex may be re-taken; so may a shared lock held shared.
    if (recursive ||
        (mode == LockMode::kShared && t_held[i].mode == LockMode::kShared)) {
      break;
    }
    before_lock(lock, name, mode);  // reports and aborts
  }
  if (t_held_count < kMaxHeld) t_held[t_held_count++] = {lock, mode};
}

bool holds_a_lock() { return t_held_count > 0; }

void after_unlock(const void* lock) {
  for (int i = t_held_count - 1; i >= 0; --i) {
    if (t_held[i].lock != lock) continue;
    t_held[i] = t_held[--t_held_count];
    return;
  }
}

}  // namespace sync_internal

namespace {
// Whether a racelab lock checks for self-deadlock itself: in stress runs the
// interposed primitive checks every lock (racelab's included, at the same
// address), and in controlled mode the scheduler sees a self-deadlock.
bool tracks_itself() {
  return active_scheduling_hooks() == nullptr &&
         interpose_internal::stress_yield_hook() == nullptr;
}
}  // namespace

// In controlled mode the primitive's own lock and unlock are the scheduling
// points (interpose.cc); what remains here is stress mode's bookkeeping.

Mutex::Mutex(const char* name) : name_(name) { name_lock(&mu_, name); }
Mutex::~Mutex() { name_lock(&mu_, nullptr); }

void Mutex::lock() {
  if (tracks_itself()) {
    sync_internal::before_lock(this, name_, LockMode::kExclusive);
  }
  mu_.lock();
  note_progress();
}

bool Mutex::try_lock() {
  if (!mu_.try_lock()) return false;
  if (tracks_itself()) {
    sync_internal::before_lock(this, name_, LockMode::kExclusive);
  }
  return true;
}

void Mutex::unlock() {
  mu_.unlock();
  if (active_scheduling_hooks() == nullptr) sync_internal::after_unlock(this);
}

SharedMutex::SharedMutex(const char* name) : name_(name) {
  name_lock(&mu_, name);
}
SharedMutex::~SharedMutex() { name_lock(&mu_, nullptr); }

void SharedMutex::lock() {
  if (tracks_itself()) {
    sync_internal::before_lock(this, name_, LockMode::kExclusive);
  }
  mu_.lock();
  note_progress();
}

void SharedMutex::unlock() {
  mu_.unlock();
  if (active_scheduling_hooks() == nullptr) sync_internal::after_unlock(this);
}

void SharedMutex::lock_shared() {
  if (tracks_itself()) {
    sync_internal::before_lock(this, name_, LockMode::kShared);
  }
  mu_.lock_shared();
  note_progress();
}

void SharedMutex::unlock_shared() {
  mu_.unlock_shared();
  if (active_scheduling_hooks() == nullptr) sync_internal::after_unlock(this);
}

namespace {

// Names given to locks: a small table, process-wide because locks are.
// Guarded by a std::mutex that is never a scheduling point.
struct LockNames {
  std::mutex mu;
  std::unordered_map<const void*, const char*> names;
};

LockNames& lock_names() {
  static LockNames* const names = new LockNames;
  return *names;
}

}  // namespace

void name_lock(const void* lock, const char* name) {
  NotSchedulingPoints harness;
  LockNames& table = lock_names();
  std::lock_guard<std::mutex> guard(table.mu);
  if (name == nullptr) {
    table.names.erase(lock);
  } else {
    table.names[lock] = name;
  }
}

const char* lock_name(const void* lock) {
  NotSchedulingPoints harness;
  LockNames& table = lock_names();
  std::lock_guard<std::mutex> guard(table.mu);
  auto found = table.names.find(lock);
  return found != table.names.end() ? found->second : nullptr;
}

}  // namespace racelab
