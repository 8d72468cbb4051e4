// The seam between the sync layer and the controlled scheduler.
//
// Subjects call racelab::Mutex, racelab::SharedMutex and
// racelab::yield_point(). In stress mode no hooks are installed and those types
// behave like the std types. In controlled mode the scheduler installs a
// SchedulingHooks object and every sync operation becomes a scheduling point
// that the scheduler decides.
#ifndef RACELAB_SCHEDULING_HOOKS_H_
#define RACELAB_SCHEDULING_HOOKS_H_

namespace racelab {

// How a lock is requested or released.
enum class LockMode { kExclusive, kShared };

// The `lock` passed to every hook is the address of the underlying std
// primitive (the std::mutex or std::shared_mutex itself), so the scheduler can
// tell ThreadSanitizer about that primitive directly.
class SchedulingHooks {
 public:
  virtual ~SchedulingHooks() = default;

  // A point where the scheduler may switch to another logical thread.
  // `what` is a static string naming the point for traces ("set", "lock").
  virtual void yield_point(const char* what) = 0;

  // The current logical thread failed to take `lock`: mark it blocked on the
  // lock and switch away. Returns when the lock may be free again; the caller
  // retries its try-lock.
  virtual void block_on(const void* lock, const char* lock_name,
                        LockMode mode) = 0;

  // The current logical thread now holds `lock`.
  virtual void acquired(const void* lock, const char* lock_name,
                        LockMode mode) = 0;

  // The current logical thread released `lock`; threads blocked on it may run.
  virtual void released(const void* lock, LockMode mode) = 0;
};

// The hooks of the running controlled scheduler, or nullptr (stress mode).
SchedulingHooks* active_scheduling_hooks();

// Installs `hooks` (nullptr uninstalls). Only the controlled scheduler calls
// it, from the single OS thread that runs all fibers.
void set_active_scheduling_hooks(SchedulingHooks* hooks);

// Called, in stress mode, when a thread requests a lock it already holds (a
// self-deadlock that would otherwise hang). The default prints the message and
// aborts; the case runner installs one that records a `deadlock` finding.
using SelfDeadlockHandler = void (*)(const char* message);
void set_self_deadlock_handler(SelfDeadlockHandler handler);

// Called by racelab::yield_point() in stress mode (for example, random jitter).
// nullptr means do nothing.
using StressYieldHook = void (*)(const char* what);
void set_stress_yield_hook(StressYieldHook hook);

}  // namespace racelab

#endif  // RACELAB_SCHEDULING_HOOKS_H_
