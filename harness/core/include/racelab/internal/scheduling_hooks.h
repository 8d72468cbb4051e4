// The seam between the synchronization a program uses and the controlled
// scheduler.
//
// In stress mode no hooks are installed and every primitive is the real one.
// In controlled mode the scheduler installs a SchedulingHooks object for one
// run, and the interposed primitives (interpose.h: the pthread mutex, rwlock,
// condition variable and thread calls that std::mutex, std::shared_mutex,
// std::condition_variable and std::thread use, TSan's atomic entry points,
// sched_yield and the sleeps) and racelab::yield_point() become scheduling
// points that the scheduler decides.
#ifndef RACELAB_SCHEDULING_HOOKS_H_
#define RACELAB_SCHEDULING_HOOKS_H_

#include <pthread.h>
#include <time.h>

#include <cstdint>

namespace racelab {

// How a lock is requested or released.
enum class LockMode { kExclusive, kShared };

// A call into a library no sanitizer instruments (libstdc++.so's container
// code: interpose_stdlib.cc), as SchedulingHooks::ran_unseen_code is told
// of it: what it is, and the memory it reads or writes (a list's nodes, a
// tree's header, a string).
struct UnseenCall {
  static constexpr int kMaxMemory = 6;
  const char* what = "";     // "std::list's _List_node_base::_M_transfer"
  const char* library = "";  // "libstdc++.so.6"
  bool writes = false;
  int count = 0;
  const void* memory[kMaxMemory] = {};
};

// What a scheduling point does, for the scheduler's fairness bound: a thread
// that reaches many points in a row that change nothing (an atomic load, a
// yield, a sleep, a failed try-lock, a timed-out wait) is spinning, and is
// descheduled while another thread can run (docs/controlled-mode.md). A
// yield or a sleep gives way at once: the thread is skipped while another
// can run, until some thread makes progress. A sleep also lets time pass,
// which a thread may be waiting for: no livelock while a thread sleeps.
enum class PointEffect { kProgress, kNoProgress, kYield, kSleep };

// Where a scheduling point stands in a logical thread, for what the scheduler
// counts and reports: inner points (inside an operation: the store's locks,
// atomics, waits and yields; RunResult::inner_points), an operation's start
// (where the thread enters its next operation), a pause the operation asked
// for, a thread's end. A point's name is for traces only.
enum class PointKind { kInner, kOperationStart, kPause, kThreadEnd };

// What a scheduling point touches: the object the step that follows it
// acts on first (the lock a thread is about to take, the atomic it is about
// to load or write, the condition variable it notifies or waits on, the
// thread it joins, the barrier or semaphore it waits on or posts), and how. The
// controlled scheduler records these, and the objects a step touches on its way
// to the next point (a lock it releases, a condition variable it waits on, the
// history clock), for strategies that reason about which steps commute
// (sched::DfsStrategy).
enum class ObjectKind {
  kNone,        // nothing another thread can observe (a thread's start)
  kLock,        // a mutex or rwlock, by the address of the primitive
  kAtomic,      // an atomic variable, by its address
  kCondition,   // a condition variable, by its address
  kBarrier,     // a pthread barrier, by its address
  kSemaphore,   // a POSIX semaphore, by its address
  kFutex,       // a futex word (libstdc++'s waits, raw futexes), by address
  kGuard,       // a function-local static's guard (__cxa_guard_*)
  kThread,      // a logical thread (its end, a join of it)
  kOperations,  // the history's clock: an operation's call or return
  kUnknown,     // anything (a yield, a sleep, a fence, a named point)
};
enum class AccessKind {
  kRead,   // an atomic load, a shared lock taken or released
  kWrite,  // everything else
};
struct PointAccess {
  ObjectKind object_kind = ObjectKind::kUnknown;
  const void* object = nullptr;
  AccessKind access = AccessKind::kWrite;

  static constexpr PointAccess unknown() { return {}; }
  static constexpr PointAccess none() {
    return {ObjectKind::kNone, nullptr, AccessKind::kRead};
  }
  friend bool operator==(const PointAccess&, const PointAccess&) = default;
};

// The C++ memory orders, numbered as TSan's atomic entry points number them
// (the memory-model mode, SchedulerOptions::memory_model).
enum class MemoryOrder {
  kRelaxed = 0,
  kConsume = 1,
  kAcquire = 2,
  kRelease = 3,
  kAcqRel = 4,
  kSeqCst = 5
};
// A TSan memory-order argument as a MemoryOrder (anything else is seq_cst,
// the strongest).
constexpr MemoryOrder memory_order(int tsan_order) {
  return tsan_order >= 0 && tsan_order <= 5
             ? static_cast<MemoryOrder>(tsan_order)
             : MemoryOrder::kSeqCst;
}

// The memory-model mode's total order of seq_cst operations, as an object
// steps touch: a seq_cst fence reads and writes it, a seq_cst store or
// read-modify-write writes it (strategies that reason about which steps
// commute see them ordered; other fences touch nothing another thread sees).
extern const char kSeqCstOrder;
inline PointAccess seq_cst_order_access() {
  return {ObjectKind::kAtomic, &kSeqCstOrder, AccessKind::kWrite};
}

// How a join waits: until the thread finished (pthread_join), until then or
// its timeout (pthread_timedjoin_np), or not at all (pthread_tryjoin_np).
enum class JoinWait { kBlock, kTimed, kTry };

// How a wait may end without the event it waits for, in the run's model of
// time (docs/controlled-mode.md, "Time"): never (kNone: no deadline), at any
// decision the strategy chooses (kNear: the deadline is at most
// kTimeoutHorizonNs after the time of the call), or only once no thread of
// the run can go on without time passing (kFar: a later deadline), the
// earliest deadline first.
enum class TimeoutKind { kNone, kNear, kFar };
inline constexpr std::int64_t kTimeoutHorizonNs = 1'000'000'000;  // 1 s
struct Timeout {
  TimeoutKind kind = TimeoutKind::kNone;
  // The deadline on CLOCK_MONOTONIC, in nanoseconds (whatever clock the
  // program gave it on): far deadlines expire in this order.
  std::int64_t deadline_ns = 0;

  bool timed() const { return kind != TimeoutKind::kNone; }
};

// Whether the order of two accesses by different threads can matter: the
// same object and at least one write (so two shared acquisitions of a lock
// commute, a lock and an unlock of it do not); on the history's clock
// (kOperations: a call is a kRead, a return a kWrite) a call against a
// return only, as the real-time order is the set of return-before-call
// pairs; kUnknown against anything; kNone against nothing.
constexpr bool dependent(const PointAccess& a, const PointAccess& b) {
  if (a.object_kind == ObjectKind::kNone ||
      b.object_kind == ObjectKind::kNone) {
    return false;
  }
  if (a.object_kind == ObjectKind::kUnknown ||
      b.object_kind == ObjectKind::kUnknown) {
    return true;
  }
  // A futex word and a static's guard are atomic variables the program
  // also loads and stores: a wait or wake on one touches that atomic.
  constexpr auto as_atomic = [](ObjectKind kind) {
    return kind == ObjectKind::kFutex || kind == ObjectKind::kGuard
               ? ObjectKind::kAtomic
               : kind;
  };
  if (as_atomic(a.object_kind) != as_atomic(b.object_kind) ||
      a.object != b.object) {
    return false;
  }
  if (a.object_kind == ObjectKind::kOperations) return a.access != b.access;
  return a.access == AccessKind::kWrite || b.access == AccessKind::kWrite;
}

// The `lock` passed to every hook is the address of the underlying primitive
// (the pthread_mutex_t or pthread_rwlock_t inside the std::mutex or
// std::shared_mutex), so the scheduler can tell ThreadSanitizer about it
// directly. `lock_name` may be null: the scheduler then names the lock by its
// kind and the order in which the run first used it ("mutex 1").
class SchedulingHooks {
 public:
  virtual ~SchedulingHooks() = default;

  // Whether the calling context is a logical thread of this run; the
  // interposed primitives leave every other thread alone.
  virtual bool owns_calling_thread() const = 0;

  // A point where the scheduler may switch to another logical thread.
  // `what` is a static string naming the point for traces ("set", "lock").
  virtual void yield_point(const char* what,
                           PointEffect effect = PointEffect::kProgress) = 0;
  // The same, for a point whose next step touches `access` (the interposed
  // primitives pass it; the two-argument form says kUnknown and kInner).
  // Hooks that do not record accesses or kinds ignore them.
  virtual void access_point(const char* what, PointEffect effect,
                            PointAccess access, PointKind kind) {
    static_cast<void>(access);
    static_cast<void>(kind);
    yield_point(what, effect);
  }
  // The running step touched `access` on its way to the next point (the
  // engine's history clock; see ControlledScheduler::touch).
  virtual void touched(PointAccess access) { static_cast<void>(access); }

  // What the last no-progress point did changed something after all (a
  // compare-and-swap that succeeded).
  virtual void progressed() {}

  // The memory-model mode (sched/memory_model.h): whether the atomics of
  // this run go through it. The interposed atomics then do their access
  // relaxed and tell the hooks, which choose what a load reads and add
  // ThreadSanitizer's happens-before edges. Values are the access's bytes
  // (`size` of them, 1 to 8) as an unsigned number.
  virtual bool models_memory() const { return false; }
  // A load whose memory holds `latest`: returns the value it reads.
  virtual unsigned long long atomic_loaded(const volatile void* address,
                                           int size, unsigned long long latest,
                                           MemoryOrder order) {
    static_cast<void>(address);
    static_cast<void>(size);
    static_cast<void>(order);
    return latest;
  }
  // A store of `value` over `previous` (what the memory held before it).
  virtual void atomic_stored(const volatile void* address, int size,
                             unsigned long long previous,
                             unsigned long long value, MemoryOrder order) {
    static_cast<void>(previous);
    static_cast<void>(address);
    static_cast<void>(size);
    static_cast<void>(value);
    static_cast<void>(order);
  }
  // A read-modify-write that read `old` (the latest store) and, when
  // `wrote`, stored `value` (a failed compare-and-swap only read).
  virtual void atomic_updated(const volatile void* address, int size,
                              unsigned long long old, bool wrote,
                              unsigned long long value, MemoryOrder order) {
    static_cast<void>(address);
    static_cast<void>(size);
    static_cast<void>(old);
    static_cast<void>(wrote);
    static_cast<void>(value);
    static_cast<void>(order);
  }
  virtual void atomic_fence(MemoryOrder order) { static_cast<void>(order); }

  // The current logical thread failed to take `lock`: mark it blocked on the
  // lock and switch away. Returns when the lock may be free again (the caller
  // retries its try-lock) or, when `timeout` is timed, when the wait timed
  // out instead (see Timeout): then it returns true.
  virtual bool block_on(const void* lock, const char* lock_name, LockMode mode,
                        Timeout timeout = {}) = 0;

  // The current logical thread now holds `lock`.
  virtual void acquired(const void* lock, const char* lock_name,
                        LockMode mode) = 0;

  // Whether the current logical thread holds `lock` exclusively (a mutex it
  // took, a rwlock it write-locked): the interposed lock calls then let glibc
  // answer a second request (a recursive mutex counts it, an error-checking
  // one or a rwlock returns EDEADLK).
  virtual bool holds_exclusively(const void* lock) const {
    static_cast<void>(lock);
    return false;
  }

  // Whether a thread of the run holds `lock`. A lock that is busy while no
  // thread of the run holds it is held outside the run (a worker a static
  // constructor started, the code that called the run): its release is not
  // seen, so the caller waits for it in the kernel, an unmodelled block,
  // instead of blocking in the scheduler's model where nothing would wake it.
  virtual bool held_in_run(const void* lock) const {
    static_cast<void>(lock);
    return true;
  }

  // A sleep until `end`. Far (TimeoutKind::kFar): the current logical thread
  // waits for no event, until its deadline passes as a far timeout's does;
  // nearer, a yield_point (PointEffect::kSleep). Either way the run's clocks
  // read at least `end` afterwards.
  virtual void sleep_until(Timeout end) {
    static_cast<void>(end);
    yield_point("sleep", PointEffect::kSleep);
  }

  // The run's clocks (docs/controlled-mode.md, "Time"): what `clock` reads
  // now in the run, into `now`. False for a clock the run does not keep (or
  // hooks without clocks of their own): the real call answers it.
  virtual bool read_clock(clockid_t clock, timespec* now) {
    static_cast<void>(clock);
    static_cast<void>(now);
    return false;
  }
  // A wait the scheduler does not hold (poll's, sigtimedwait's) timed out at
  // `end`: the run's clocks read at least `end` afterwards.
  virtual void time_passes_until(Timeout end) { static_cast<void>(end); }

  // The current logical thread released `lock` (in whichever mode it held
  // it); threads blocked on it may run.
  virtual void released(const void* lock, LockMode mode) = 0;

  // `lock` is a robust mutex (PTHREAD_MUTEX_ROBUST): a thread that ends
  // holding it releases it to the kernel, which marks it for the next locker
  // (EOWNERDEAD), and the threads blocked on it may run. When every holder
  // of it in the run has ended, waits until their OS threads are gone (the
  // kernel has then marked it) and forgets them as holders.
  virtual void settle_robust_lock(const void* lock) { static_cast<void>(lock); }

  // Condition variables. cond_wait: the caller has released the mutex; mark
  // it waiting on `cond` and switch away until a notify wakes it, or, when
  // `timeout` is timed, until the wait times out (returns true).
  // cond_notify wakes the longest waiter, or every waiter when `all`.
  virtual bool cond_wait(const void* cond, Timeout timeout) = 0;
  virtual void cond_notify(const void* cond, bool all) = 0;

  // Barriers, semaphores, futex words and static guards (`object`: which
  // one, by kind and address). object_wait: mark the current thread waiting
  // on it and switch away until wake_object() wakes it, or, when `timeout`
  // is timed, until the wait times out instead (returns true).
  // wake_object wakes up to `at_most` of its waiters, lowest thread first,
  // and returns how many it woke (a semaphore wakes every waiter: those that
  // find the count zero wait again). object_waiters: how many threads of the
  // run wait on it.
  static constexpr int kEveryWaiter = 1 << 30;
  virtual bool object_wait(PointAccess object, Timeout timeout) = 0;
  virtual int wake_object(const void* object, int at_most) = 0;
  virtual int object_waiters(const void* object) const = 0;

  // Threads. spawn: create a logical thread that runs start(arg) on a new OS
  // thread (pthread_create's contract, *result its return value); false when
  // this run cannot create threads (fibers), and the caller creates a plain
  // thread. join: wait, as a blocked logical thread, until `thread` finished
  // (or as `wait` says: see JoinWait); false when it is not a thread of this
  // run. *finished (when given) says whether it had finished: a timed join
  // that timed out or a try that found it running did not join it.
  virtual bool spawn(pthread_t* thread, const pthread_attr_t* attr,
                     void* (*start)(void*), void* arg, int* result) = 0;
  virtual bool join(pthread_t thread, JoinWait wait = JoinWait::kBlock,
                    bool* finished = nullptr, Timeout timeout = {}) = 0;
  // `thread` was detached: the run will not join it.
  virtual void detach(pthread_t thread) = 0;
  // `thread` was sent a cancellation request (the real pthread_cancel has
  // recorded it): a point of the caller; a thread of this run waiting at a
  // cancellation point (a condition variable, a join, a semaphore) wakes to
  // act on it.
  virtual void cancel(pthread_t thread) { static_cast<void>(thread); }
  // Whether a thread of the run other than the caller can be scheduled now
  // (runnable, or in a wait the scheduler may time out): a caller that
  // would wait for the outside world gives way while one can.
  virtual bool another_thread_can_run() const { return false; }
  // The calling thread is about to run code no sanitizer instruments
  // (interpose_stdlib.cc): a race inside it cannot be seen, so where two
  // threads reach the same memory there with no lock ordering them, the run
  // is not exhaustive.
  virtual void ran_unseen_code(const UnseenCall& call) {
    static_cast<void>(call);
  }
};

// The names the interposed primitives pass for a std::mutex (any pthread
// mutex) and a std::shared_mutex (any pthread rwlock); the scheduler numbers
// such locks in the order a run first uses them ("mutex 1").
inline constexpr char kUnnamedMutex[] = "mutex";
inline constexpr char kUnnamedSharedMutex[] = "shared_mutex";

// Gives the lock at `lock` a name for traces and deadlock reports
// (racelab::Mutex does it for its own primitive); nullptr forgets it.
void name_lock(const void* lock, const char* name);
// The name given to `lock`, or nullptr.
const char* lock_name(const void* lock);

// The hooks of the running controlled scheduler, or nullptr (stress mode).
SchedulingHooks* active_scheduling_hooks();

// Installs `hooks` (nullptr uninstalls). Only the controlled scheduler calls
// it, around one run. Installing forgets the threads outside the run seen
// before.
void set_active_scheduling_hooks(SchedulingHooks* hooks);

// Whether a thread that is not one of the run's works beside it: a thread a
// static constructor started before main that is still running when the
// hooks are installed, or any other that made an interposed call while they
// were. Such a thread runs in real time, so the run's time must not pass
// faster than real time (RunClock::pass_until).
bool threads_outside_the_run_seen();

// Called by the whole-program runtime as main is entered: threads started
// before it (by static constructors) are counted as outside every run.
void note_main_entered();

// Called, in stress mode, when a thread requests a racelab::Mutex it already
// holds (a self-deadlock that would otherwise hang). The default prints the
// message and aborts; the case runner installs one that records a `deadlock`
// finding.
using SelfDeadlockHandler = void (*)(const char* message);
void set_self_deadlock_handler(SelfDeadlockHandler handler);

// Called by racelab::yield_point() in stress mode (for example, random jitter).
// nullptr means do nothing.
using StressYieldHook = void (*)(const char* what);
void set_stress_yield_hook(StressYieldHook hook);

namespace interpose_internal {
// Nesting of harness code on this OS thread: while it is open the interposed
// primitives and atomics are not scheduling points (the scheduler's own
// bookkeeping, the engine's clock, GoMap's checks). Kept in uninstrumented
// code: fibers share the OS thread's thread_local storage.
void enter_harness();
void leave_harness();
// Harness code that TSan does not watch either (sched::HarnessScope, which
// also hides its memory accesses): as above, and its atomics are done
// natively, unseen by TSan, so that they order nothing between threads.
void enter_unwatched_harness();
void leave_unwatched_harness();
// Whether the calling OS thread takes part in the running controlled run
// (set by the scheduler); the interposed functions leave other threads alone
// without looking at the hooks.
void set_thread_in_run(bool in_run);
// The call stack (return addresses, innermost first, null-terminated) of the
// interposed lock call being served on this OS thread, for the scheduler to
// say where a lock was first taken.
constexpr int kCallSiteDepth = 6;
const void* const* call_sites();
// Stress mode: a lock acquisition is a point where the stress runner may
// nudge the thread aside (the StressYieldHook; not in harness code).
void stress_lock_point(const char* what);
// Stress mode: a thread that requests an interposed lock it already holds
// (exclusively, or exclusively what it holds shared) is reported through the
// SelfDeadlockHandler instead of hanging, as racelab::Mutex's are.
// `recursive`: a recursive mutex, which may be re-taken. Only while a stress
// run is active (its yield hook installed) and not in harness code.
void stress_before_lock(const void* lock, const char* name, LockMode mode,
                        bool recursive = false);
void stress_after_unlock(const void* lock);

// Stress mode's table of what each OS thread of a stress run waits for and
// holds, for a hung check to name its locks (isolation.h): the interposed
// lock or condition variable a thread is blocked on and the locks it holds,
// each with the return addresses of the call (innermost first). Each thread
// writes its own row with relaxed atomics and a watcher copies the table
// without stopping anyone, so a row caught mid-update may be off by that
// update: a diagnosis printed beside a hang, never a verdict.
constexpr int kLockRows = 32;
constexpr int kRowLocks = 8;
constexpr int kSiteDepth = 16;
enum class WaitKind : int { kNone, kLock, kCondition };
struct LockSite {
  const void* object = nullptr;  // the lock or condition variable
  const void* sites[kSiteDepth] = {};
};
struct StressLockRow {
  long tid = 0;  // the OS thread's id; 0: a free row
  WaitKind waiting = WaitKind::kNone;
  LockSite wait;  // what it is blocked on, when waiting
  int held_count = 0;
  LockSite held[kRowLocks];  // locks it holds, oldest first
};
// Copies the rows in use into `out` (room for kLockRows); returns how many.
int copy_stress_lock_table(StressLockRow* out);
// The calling thread's row while a stress run is active (its yield hook
// installed), not in harness code: an interposed lock call returned, having
// taken `lock`; a condition-variable wait on `cond` begins, releasing `mu`,
// and ends, holding it again. stress_before_lock marks the wait for a lock,
// stress_after_unlock the release.
void stress_waits_for_lock(const void* lock);
void stress_after_lock(const void* lock);
void stress_lock_released(const void* lock);
void stress_cond_wait_begins(const void* cond, const void* mu);
void stress_cond_wait_ends(const void* mu);
}  // namespace interpose_internal

// Marks harness code that runs on a logical thread: the locks and atomics it
// uses are not scheduling points. Must not span one (no racelab::yield_point
// inside).
//
// Neither it nor what it calls is instrumented: TSan's report callback uses
// it, where a function entry recorded in the trace made the runtime wait for
// its background thread (100 ms) on every report of a fiber.
class NotSchedulingPoints {
 public:
  __attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
  NotSchedulingPoints() {
    interpose_internal::enter_harness();
  }
  __attribute__((no_sanitize("thread"),
                 disable_sanitizer_instrumentation)) ~NotSchedulingPoints() {
    interpose_internal::leave_harness();
  }
  NotSchedulingPoints(const NotSchedulingPoints&) = delete;
  NotSchedulingPoints& operator=(const NotSchedulingPoints&) = delete;
};

}  // namespace racelab

#endif  // RACELAB_SCHEDULING_HOOKS_H_
