// Implementation of the sync layer: cooperative in controlled mode, std types
// with self-deadlock detection in stress mode.
#include "racelab/sync.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "racelab/progress.h"

namespace racelab {
namespace {

// Process-wide on purpose: every lock operation of every thread reads these
// hooks. The controlled scheduler installs its hooks for one run and removes
// them after it; a stress run installs its yield hook the same way
// (JitterScope); the self-deadlock handler is the process's (a case run's
// child reports and exits).
SchedulingHooks* g_hooks = nullptr;  // written only by the controlled scheduler
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

SchedulingHooks* active_scheduling_hooks() { return g_hooks; }
void set_active_scheduling_hooks(SchedulingHooks* hooks) { g_hooks = hooks; }
void set_self_deadlock_handler(SelfDeadlockHandler handler) {
  g_self_deadlock_handler = handler;
}
void set_stress_yield_hook(StressYieldHook hook) { g_stress_yield_hook = hook; }

void yield_point(const char* what) {
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->yield_point(what);
  } else if (StressYieldHook hook = g_stress_yield_hook) {
    hook(what);
  }
}

namespace {

// Stress mode: a lock acquisition is a point where the stress runner may
// nudge the thread aside (see stress_runner.cc).
void stress_sync_point(const char* what) {
  if (StressYieldHook hook = g_stress_yield_hook) hook(what);
}

}  // namespace

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

void after_unlock(const void* lock) {
  for (int i = t_held_count - 1; i >= 0; --i) {
    if (t_held[i].lock != lock) continue;
    t_held[i] = t_held[--t_held_count];
    return;
  }
}

}  // namespace sync_internal

void Mutex::lock() {
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->yield_point("lock");
    while (!mu_.try_lock()) hooks->block_on(&mu_, name_, LockMode::kExclusive);
    hooks->acquired(&mu_, name_, LockMode::kExclusive);
    return;
  }
  stress_sync_point("lock");
  sync_internal::before_lock(this, name_, LockMode::kExclusive);
  mu_.lock();
  note_progress();
}

bool Mutex::try_lock() {
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->yield_point("try_lock");
    if (!mu_.try_lock()) return false;
    hooks->acquired(&mu_, name_, LockMode::kExclusive);
    return true;
  }
  if (!mu_.try_lock()) return false;
  sync_internal::before_lock(this, name_, LockMode::kExclusive);
  return true;
}

void Mutex::unlock() {
  mu_.unlock();
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->released(&mu_, LockMode::kExclusive);
    hooks->yield_point("unlock");
    return;
  }
  sync_internal::after_unlock(this);
}

void SharedMutex::lock() {
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->yield_point("lock");
    while (!mu_.try_lock()) hooks->block_on(&mu_, name_, LockMode::kExclusive);
    hooks->acquired(&mu_, name_, LockMode::kExclusive);
    return;
  }
  stress_sync_point("lock");
  sync_internal::before_lock(this, name_, LockMode::kExclusive);
  mu_.lock();
  note_progress();
}

void SharedMutex::unlock() {
  mu_.unlock();
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->released(&mu_, LockMode::kExclusive);
    hooks->yield_point("unlock");
    return;
  }
  sync_internal::after_unlock(this);
}

void SharedMutex::lock_shared() {
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->yield_point("lock_shared");
    while (!mu_.try_lock_shared())
      hooks->block_on(&mu_, name_, LockMode::kShared);
    hooks->acquired(&mu_, name_, LockMode::kShared);
    return;
  }
  stress_sync_point("lock_shared");
  sync_internal::before_lock(this, name_, LockMode::kShared);
  mu_.lock_shared();
  note_progress();
}

void SharedMutex::unlock_shared() {
  mu_.unlock_shared();
  if (SchedulingHooks* hooks = g_hooks) {
    hooks->released(&mu_, LockMode::kShared);
    hooks->yield_point("unlock_shared");
    return;
  }
  sync_internal::after_unlock(this);
}

}  // namespace racelab
