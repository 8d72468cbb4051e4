// The controlled scheduler's private header: SchedulerCore, the state of a
// run and every hook behind ControlledScheduler, shared by the scheduler's
// source files (scheduler.cc: the run loop and the decisions;
// scheduler_blocking.cc: locks, condition variables, objects and joins;
// scheduler_substrates.cc: fibers and baton-passing OS threads;
// scheduler_unmodelled.cc: the watcher of unmodelled blocks;
// scheduler_deadlock.cc: the deadlock text; scheduler_api.cc:
// ControlledScheduler). Not installed.
//
// TSan discipline. The bookkeeping below (thread states, lock owners, trace,
// decisions, the strategy) is touched by every fiber, and no happens-before
// orders those fibers, so every access to it happens inside a HarnessScope,
// where TSan ignores the fiber's memory accesses; `current_` is an atomic
// because user code reads it through current_thread(). A scope never spans a
// switch: a hook decides inside its scope and switches after it, so a fiber is
// never suspended (or abandoned) with TSan ignores enabled. No std::string or
// other owner of heap memory is alive on a fiber's stack across a switch, so
// abandoning or parking a fiber leaks nothing of the harness's.
//
// Unmodelled blocks (OS threads). The run's state is touched by the thread
// that holds the baton and, when that thread blocks in the kernel outside
// every scheduling point, by the watching thread that ends its turn for it.
// Every touch of the state by a logical thread or the watcher is made with
// the turn word (`turn_`, a lock the baton holder takes at each hook and
// frees before it passes the baton on) held: the watcher takes a turn only
// when the holder is outside every hook, so the blocked thread, back from
// the kernel at its next hook, finds at the turn word that it runs free and
// waits to be readmitted. Decisions readmit the threads that came back.
#ifndef RACELAB_SCHED_SCHEDULER_CORE_H_
#define RACELAB_SCHED_SCHEDULER_CORE_H_

#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "racelab/baton.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/memory_model.h"
#include "racelab/syscall_name.h"
#include "run_clock.h"
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_SCHED_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define RACELAB_SCHED_ASAN 1
#endif
#endif
#if !defined(RACELAB_SCHED_TSAN) && defined(__SANITIZE_THREAD__)
#define RACELAB_SCHED_TSAN 1
#endif
#if !defined(RACELAB_SCHED_ASAN) && defined(__SANITIZE_ADDRESS__)
#define RACELAB_SCHED_ASAN 1
#endif

#ifdef RACELAB_SCHED_TSAN
#include <sanitizer/tsan_interface.h>
// Exported by the TSan runtime (not declared in its public header in LLVM 14).
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
extern "C" void AnnotateThreadName(const char* file, int line,
                                   const char* name);
#endif
// The sanitizer runtimes' symbolizer (weak: absent without a sanitizer).
extern "C" void __sanitizer_symbolize_pc(void* pc, const char* format,
                                         char* out, std::size_t size)
    __attribute__((weak));

namespace racelab::interpose_internal {
int real_pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                        void* (*start)(void*), void* arg);
int real_pthread_join(pthread_t thread, void** result);
}  // namespace racelab::interpose_internal
#ifdef RACELAB_SCHED_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define RACELAB_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))

namespace racelab::sched::internal {

// How late a thread that can run may be, on the run's clock: time passes
// no further than this beyond the moment since which it has been ready
// (order_deadlines; docs/controlled-mode.md, "Time"). A real thread is late
// by a time slice, a page fault or a sanitizer's report; a program that
// sleeps 100 ms or more to let its other threads get on is not failed for
// their being later than that.
inline constexpr std::int64_t kLatenessNs = 50'000'000;  // 50 ms

class SchedulerCore {
 public:
  SchedulerCore(ControlledScheduler* hooks, SchedulerOptions options)
      : hooks_(hooks), options_(options) {
    unseen_uses_.reserve(kUnseenUses);
  }

  RunResult run(const std::vector<std::function<void()>>& threads,
                const std::function<void()>* program, Strategy& strategy);

  bool owns_calling_thread() const;
  // The run's clocks (run_clock.h).
  bool read_clock(clockid_t clock, timespec* now) {
    return clock_.read(clock, now);
  }
  void time_passes_until(Timeout end) {
    if (end.timed()) clock_.pass_until(end.deadline_ns);
  }
  void yield_point(const char* what, PointEffect effect, PointAccess access,
                   PointKind kind);
  void touched(PointAccess access);
  void progressed();
  // The memory-model mode (scheduler_memory.cc).
  bool models_memory() const { return memory_ != nullptr; }
  unsigned long long atomic_loaded(const volatile void* address, int size,
                                   unsigned long long latest,
                                   MemoryOrder order);
  void atomic_stored(const volatile void* address, int size,
                     unsigned long long previous, unsigned long long value,
                     MemoryOrder order);
  void atomic_updated(const volatile void* address, int size,
                      unsigned long long old, bool wrote,
                      unsigned long long value, MemoryOrder order);
  void atomic_fence(MemoryOrder order);
  bool block_on(const void* lock, const char* lock_name, LockMode mode,
                Timeout timeout);
  void acquired(const void* lock, const char* lock_name, LockMode mode);
  bool holds_exclusively(const void* lock) const;
  bool held_in_run(const void* lock) const;
  void released(const void* lock, LockMode mode);
  void settle_robust_lock(const void* lock);
  void sleep_until(Timeout end);
  bool cond_wait(const void* cond, Timeout timeout);
  void cond_notify(const void* cond, bool all);
  bool spawn(pthread_t* thread, const pthread_attr_t* attr,
             void* (*start)(void*), void* arg, int* result);
  bool object_wait(PointAccess object, Timeout timeout);
  int wake_object(const void* object, int at_most);
  int object_waiters(const void* object) const;
  bool join(pthread_t thread, JoinWait wait, bool* finished, Timeout timeout);
  void detach(pthread_t thread);
  void cancel(pthread_t thread);
  bool another_thread_can_run() const;
  void ran_unseen_code(const UnseenCall& call);
  void note(std::string&& text);
  void begin_operation(int index);
  void set_switch_observer(SwitchObserver observer, void* context) {
    observer_ = observer;
    observer_context_ = context;
  }
  void set_block_observer(BlockObserver observer, void* context) {
    block_observer_ = observer;
    block_observer_context_ = context;
  }
  // ControlledScheduler::run_program_here: set, run_program's main runs on
  // the caller's thread and a run main cannot go on from ends here.
  void set_stranded_end(ControlledScheduler::StrandedEnd end, void* context) {
    stranded_ = end;
    stranded_context_ = context;
  }
  // Around a fork of one of a run_program_here run's threads: stops the
  // watcher of unmodelled blocks (pause) or starts it again.
  void pause_watch(bool pause);
  bool os_threads() const {
    return options_.substrate == Substrate::kOsThreads;
  }
  bool tracing() const { return tracing_; }
  // ControlledScheduler::last_store_step for logical thread `me`.
  std::uint64_t last_store_step(int me) const {
    return threads_[static_cast<std::size_t>(me)].last_store_step;
  }

  // The fiber entry: runs whichever logical thread it is given, once per run.
  static void fiber_main(void* core);
  // The OS thread entry, and the end of an OS thread (a thread-specific
  // value's destructor, so that its thread_local destructors ran before).
  static void* os_thread_main(void* os_thread);
  static void os_thread_finished(void* os_thread);
  // The watching thread of a run on OS threads (unmodelled blocks).
  static void* watch_main(void* core);

  // Read by the interposed primitives on every call: never an instrumented
  // (and so interposed) atomic.
  int current() const { return load_unseen(&current_); }

 private:
  // kFree: it blocked in the kernel outside every scheduling point and its
  // turn was ended for it; it runs free until its next hook.
  enum class Status { kRunnable, kBlocked, kFinished, kFree };
  // kSleep: a sleep whose end is far (sleep_until), woken by no event.
  enum class Wait { kNone, kLock, kCond, kJoin, kObject, kSleep };
  struct LogicalThread {
    const std::function<void()>* body = nullptr;
    void* (*start)(void*) = nullptr;  // a thread the run created
    void* arg = nullptr;
    Status status = Status::kRunnable;
    bool started = false;
    Wait wait = Wait::kNone;
    // The lock, condition variable, barrier or semaphore.
    const void* waiting_for = nullptr;
    ObjectKind waiting_kind = ObjectKind::kNone;  // of an object wait
    LockMode waiting_mode = LockMode::kExclusive;
    int join_target = -1;
    // Of a timed wait: near, it is still schedulable (picked, it times out);
    // far, it is blocked until expire_far_deadline() picks it.
    Timeout timeout;
    // When it last could run and was not waiting (RunClock::elapsed()): a
    // thread started, woken, or stopped at a point. How late it is bounds
    // how far time may pass before it runs (order_deadlines).
    std::int64_t ready_at = 0;
    long wait_order = 0;   // condition variables wake in this order
    int spin = 0;          // consecutive no-progress points
    bool yielded = false;  // its last point was a yield or a sleep
    // It polled (a point that changed nothing) since the last progress or
    // sleep: the step limit's evidence that it cannot progress.
    bool polled = false;
    const char* site = "start";  // the scheduling point it stopped at last
    int operation = -1;          // from begin_operation()
    // What its step touches: the access of the point it stopped at, then
    // what it touched while it ran (Strategy::step_finished).
    sched::Footprint step{PointAccess::none()};
    // The last step in which it touched a lock or an atomic (0: none yet).
    std::uint64_t last_store_step = 0;
    bool returned = false;  // kFree, and back at a hook: to be readmitted
  };
  // The OS thread of a logical thread (Substrate::kOsThreads).
  struct OsThread {
    SchedulerCore* core = nullptr;
    int id = 0;
    pthread_t handle{};
    long tid = 0;  // its kernel thread id, once it runs
    Baton baton;
    bool created = false;
    bool abandoned = false;  // the run ended without it: park, never resume
    bool detached = false;
    bool joined = false;
    // 1: the thread runs free (kFree). Written and read with the turn word
    // held (unseen atomics); its thread reads it through t_free.
    int free = 0;
  };
  struct Holder {
    int thread;
    LockMode mode;
  };
  struct LockState {
    std::string name = "lock";
    std::vector<Holder> holders;
    // Where the run first took it: return addresses, innermost first.
    std::vector<const void*> first_taken_at;
    int last_owner = -1;  // the thread that took it last
    bool robust = false;  // settle_robust_lock: a holder's end releases it
  };

  // The threads of a run of threads given up front (run()).
  static constexpr int kMaxThreads = 1024;
  static constexpr int kToCaller = -1;  // "thread" -1: the caller of run()
  // No thread holds the baton: every thread that could run runs free; the
  // first to come back to a hook decides.
  static constexpr int kNobody = -2;

  // Holds the turn word (see the top of scheduler_core.h) while it lives; a
  // thread that finds it runs free waits to be readmitted first.
  class Turn {
   public:
    Turn(SchedulerCore* core, int me) : core_(core) { core_->claim(me); }
    ~Turn() { release(); }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    void release() {
      if (core_ != nullptr) core_->unclaim();
      core_ = nullptr;
    }

   private:
    SchedulerCore* core_;
  };
  void claim(int me);
  void unclaim() {
    if (load_unseen(&watching_) != 0) unlock_unseen(&turn_);
  }
  // Watcher: ends the blocked holder's turn (turn word held).
  int take_turn_of(int holder, long tid);
  void watch();
  void start_watch();
  void stop_watch();

  int enter_hook(const char* hook) const;
  void run_thread();
  void run_body(int me);
  int decide(int me, const char* what, PointKind kind = PointKind::kInner,
             PointAccess at = PointAccess::unknown());
  // A lock or an atomic touched by the running `thread`: its step is the one
  // the last decision began (decisions are counted from 1).
  void note_store_access(LogicalThread& thread, PointAccess access) const {
    if (access.object_kind == ObjectKind::kLock ||
        access.object_kind == ObjectKind::kAtomic) {
      thread.last_store_step = decisions_.size();
    }
  }
  int end_run();
  // Something another thread can see changed: every thread's spin count
  // starts again, and so does the step limit's count.
  void note_run_progress() {
    for (int t : live_) {
      LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
      thread.spin = 0;
      thread.polled = false;
    }
    progress_at_ = decisions_.size();
  }
  // `me` finished: it leaves live_.
  void leave_live(int me) {
    const auto at = std::lower_bound(live_.begin(), live_.end(), me);
    if (at != live_.end() && *at == me) live_.erase(at);
  }
  // Time passed (a sleep, a timed wait that timed out): what a thread waits
  // for may be a deadline racelab cannot see, so the step limit's count
  // starts again; fairness's counts do not (time changes nothing another
  // thread sees).
  void note_time_passed() {
    for (int t : live_) threads_[static_cast<std::size_t>(t)].polled = false;
    progress_at_ = decisions_.size();
  }
  // A point of `thread` that changed nothing: a poll.
  static void note_poll(LogicalThread& thread) {
    ++thread.spin;
    thread.polled = true;
  }
  // At the step limit: the evidence that no thread can progress (every
  // thread that can run polled since the last progress), or kNone.
  RunResult::LivelockEvidence livelock_evidence(std::string* report) const;
  Fiber* fiber_of(int thread) const;
  Baton& baton_of(int thread);
  // Ends `me`'s turn and starts `to`'s; returns when `me` runs again.
  // `to` may be kNobody: `me` only waits. Frees `turn` (held by `me`)
  // right before it passes the baton on.
  void switch_away(int me, int to, Turn* turn = nullptr);
  void start_os_thread(int id, const pthread_attr_t* attr);
  void finish_os_thread(int me);
  [[noreturn]] void abandon_self(int me);
  // run_program's main returned: a scheduling point where the other threads
  // may still run, then the end of the run (the others are abandoned, as a
  // process exit ends them).
  void exit_program(int me);
  void end_os_threads();
  // run_program_here: main is the caller's thread, not an OS thread of its
  // own; kToCaller is the end of the process, not a hand-off.
  bool main_here() const { return stranded_ != nullptr && program_ != nullptr; }
  void run_main_here();
  // Called with the turn held (or no watch) by the thread whose decision
  // ended a main_here() run, through baton_of(kToCaller): builds the result
  // and calls stranded_.
  [[noreturn]] void end_stranded();
  // The run's result, taken out of the run's state (the run is over).
  RunResult take_result(Strategy& strategy);
  void add_row(int thread, TraceKind kind, std::string text);
  // A lock row: its text ("<verb> 'name'", " (shared)") and its lock fields.
  void add_lock_row(int thread, TraceKind kind, const char* verb,
                    const std::string& lock_name, LockMode mode);
  LockState& lock_state(const void* lock, const char* lock_name);
  void wake_waiters_of(const void* lock);
  bool retakes_own_lock(int me, PointAccess access) const;
  // The logical thread of this run whose OS thread is `thread`, or -1. The
  // newest wins: a handle may be reused once its thread has ended.
  int thread_of(pthread_t thread) const {
    const auto found = by_handle_.find(thread);
    return found != by_handle_.end() ? found->second : -1;
  }
  // Ends `thread`'s wait: it can run again (a waker's side of a wait).
  void wake(LogicalThread& thread) {
    thread.ready_at = clock_.elapsed();
    thread.status = Status::kRunnable;
    thread.wait = Wait::kNone;
    thread.waiting_for = nullptr;
  }
  bool runnable_besides(int me) const;
  // runnable_besides(), or a thread besides `me` back from running free
  // and waiting to be readmitted (scheduler_unmodelled.cc).
  bool could_run_besides(int me) const;
  // Marks `thread` waiting with `timeout`: runnable when it is near.
  static void start_wait(LogicalThread& thread, Wait kind, Timeout timeout) {
    thread.status = timeout.kind == TimeoutKind::kNear ? Status::kRunnable
                                                       : Status::kBlocked;
    thread.wait = kind;
    thread.timeout = timeout;
  }
  bool end_wait(int me, Wait kind);
  // No thread can go on without time passing: the blocked wait with the
  // earliest far deadline (the lowest thread among equal ones) is made
  // runnable, to time out when it runs. Returns it, or -1 when no wait has
  // a far deadline.
  int expire_far_deadline();
  // Time passes in order (scheduler_blocking.cc): takes out of enabled_
  // each thread that could run now only to time out (or end its sleep)
  // while another thread's deadline comes first, or another thread would
  // be later than kLatenessNs.
  // Returns whether it took any out.
  bool order_deadlines();
  // The timed wait with the earliest deadline, near or far, made runnable
  // (the threads that can run spin: time passes); -1 when there is none.
  int expire_earliest_deadline();
  // Both: the earliest deadline among the far waits that are blocked
  // (`far_only`), or among every timed wait; `why` is its trace row.
  int expire_deadline(bool far_only, const char* why);
  // The memory-model mode: `me` acquires what was released on `object`
  // (takes its own HarnessScope); which store a load reads (a decision of
  // the schedule, recorded as thread picks are).
  void model_acquire(int me, const void* object);
  int decide_value(int me, int count);
  // Tells the switch observer of `me`'s value decision `index`, once the
  // load's row is in the trace.
  void announce_value(int me, int index);
  void touch_seq_cst_order(int me);
  void finished(int me);
  const std::string& object_name(PointAccess object);
  // The name object_name() gave `object`, or "?".
  std::string known_object_name(const void* object) const {
    auto name = objects_.find(object);
    return name != objects_.end() ? name->second : "?";
  }
  std::string describe_wait(int thread) const;
  std::string describe_lock(const void* lock) const;
  std::string describe_deadlock() const;
  // Each lock and condition variable a blocked thread waits for: its
  // address and where it was first taken (not deterministic: addresses).
  std::string describe_deadlock_locks() const;
  void forget_abandoned_locks();
  void recycle_abandoned_fibers();

  ControlledScheduler* const hooks_;
  const SchedulerOptions options_;
  SwitchObserver observer_ = nullptr;
  void* observer_context_ = nullptr;
  BlockObserver block_observer_ = nullptr;
  void* block_observer_context_ = nullptr;
  ControlledScheduler::StrandedEnd stranded_ = nullptr;
  void* stranded_context_ = nullptr;

  // Kept from run to run.
  std::vector<std::unique_ptr<Fiber>> fibers_;

  // State of the current run.
  std::unique_ptr<Fiber> caller_;  // the context that called run()
  Baton caller_baton_;             // OS threads: the caller's turn
  int run_cpu_ = -1;               // OS threads: the CPU they all run on
  Baton abandon_done_;             // OS threads: an abandoned one parked
  std::vector<std::unique_ptr<OsThread>> os_;
  // The newest logical thread of each handle among the created OS threads.
  std::unordered_map<pthread_t, int> by_handle_;
  const std::function<void()>* program_ = nullptr;  // run_program's main
  Strategy* strategy_ = nullptr;
  std::vector<LogicalThread> threads_;
  // The threads that have not finished, in ascending order: what a decision
  // and a wake-up look through (a run may have created thousands that
  // finished).
  std::vector<int> live_;
  // What each thread's next step touches first, for the strategy.
  std::vector<PointAccess> next_accesses_;
  std::unordered_map<const void*, LockState> locks_;
  std::unordered_map<const void*, std::string> conds_;  // names
  // Barriers' and semaphores' names ("barrier 1"), and how many of each.
  std::unordered_map<const void*, std::string> objects_;
  int barriers_ = 0;
  int semaphores_ = 0;
  int futexes_ = 0;
  int guards_ = 0;
  int unnamed_locks_ = 0;
  long wait_clock_ = 0;
  RunClock clock_;  // the run's time (run_clock.h)
  std::vector<int> enabled_;
  std::vector<int> decisions_;
  std::size_t progress_at_ = 0;  // decisions_.size() at the last progress
  std::int64_t limit_ = 0;       // RunResult::limit
  RunResult::LivelockEvidence evidence_ = RunResult::LivelockEvidence::kNone;
  std::string livelock_report_;           // RunResult::livelock_report
  std::vector<int> decision_operations_;  // parallel to decisions_
  int preemptions_ = 0;
  int inner_points_ = 0;
  // Fairness took a choice away in this run (RunResult::fairness_cut).
  bool fairness_cut_ = false;
  RunResult::Status status_ = RunResult::Status::kCompleted;
  std::string deadlock_report_;
  std::string deadlock_locks_;
  Trace trace_;
  bool tracing_ = true;  // the run's strategy records its trace
  std::vector<std::string> thread_errors_;
  std::exception_ptr error_;
  // The memory-model mode's stores and views (SchedulerOptions::
  // memory_model), made anew for every run; null when the mode is off.
  std::unique_ptr<MemoryModel> memory_;
  int current_ = -1;  // atomic through current() and set_current()
  // Unmodelled blocks (OS threads): whether this run is watched, the turn
  // word, the decisions so far (read by the watcher), the run's number (a
  // thread of an earlier run that comes back from the kernel parks), the
  // watcher and its stop word, and the blocks seen.
  int watching_ = 0;
  bool watcher_started_ = false;
  mutable int turn_ = 0;
  int decision_count_ = 0;
  int generation_ = 0;
  pthread_t watcher_{};
  int stop_watch_ = 0;
  std::vector<UnmodelledBlock> blocks_;
  // Calls into code no sanitizer instruments (ran_unseen_code), by the
  // memory they reached: who, when (its own count in its vector clock),
  // whether it wrote, with which locks held. A run notes the first pair of
  // threads nothing orders there, once. Kept in storage reserved when the
  // scheduler is made, so that following them allocates nothing during a
  // run: a program whose bug corrupts its heap fails the same way with or
  // without them.
  static constexpr int kUnseenLocks = 4;      // locks kept per use
  static constexpr int kUnseenThreads = 64;   // threads whose order is kept
  static constexpr std::size_t kUnseenUses = 4096;  // uses kept per run
  struct UnseenUse {
    const void* memory;
    int thread;
    int epoch;
    bool writes;
    int lock_count;
    std::pair<const void*, LockMode> locks[kUnseenLocks];
  };
  std::vector<UnseenUse> unseen_uses_;
  bool unseen_code_noted_ = false;
  // Happens-before by thread starts and joins, for those uses: each
  // thread's vector clock over the first kUnseenThreads threads (a start
  // gives the new thread its creator's view and moves the creator on; a
  // join takes the joined thread's view), row-major. A use another thread's
  // clock covers is ordered before what that thread does next; a thread
  // past the first kUnseenThreads is ordered with nothing.
  std::vector<int> unseen_clock_ =
      std::vector<int>(kUnseenThreads * kUnseenThreads, 0);
  int* unseen_clock(int thread) {
    if (thread < 0 || thread >= kUnseenThreads) return nullptr;
    int* clock = &unseen_clock_[static_cast<std::size_t>(thread) *
                                kUnseenThreads];
    // A thread's own count starts at 1: another's view of it starts at 0,
    // before any of its uses.
    if (clock[thread] == 0) clock[thread] = 1;
    return clock;
  }
  void unseen_spawned(int parent, int child) {
    int* from = unseen_clock(parent);
    int* to = unseen_clock(child);
    if (from == nullptr || to == nullptr) return;
    for (int t = 0; t < kUnseenThreads; ++t) {
      if (t != child) to[t] = from[t];
    }
    ++from[parent];
  }
  void unseen_joined(int joiner, int joined) {
    const int* view = unseen_clock(joined);
    int* mine = unseen_clock(joiner);
    if (view == nullptr || mine == nullptr) return;
    for (int t = 0; t < kUnseenThreads; ++t)
      mine[t] = std::max(mine[t], view[t]);
  }
  // The run's note, written into storage of its own (no allocation while
  // the program runs). A whole program's block observer is told at once, so
  // that a crash later keeps it; otherwise the note joins the run's blocks
  // when the run ends (take_unseen_note).
  char unseen_note_[512] = {};
  int unseen_note_thread_ = -1;
  int unseen_note_step_ = 0;
  bool unseen_note_pending_ = false;
  template <class... Args>
  void note_unseen(int me, const char* format, Args... args) {
    unseen_code_noted_ = true;
    std::snprintf(unseen_note_, sizeof unseen_note_, format, args...);
    unseen_note_thread_ = me;
    unseen_note_step_ = static_cast<int>(decisions_.size());
    unseen_note_pending_ = true;
    if (block_observer_ != nullptr) take_unseen_note();
  }
  void take_unseen_note() {
    if (!unseen_note_pending_) return;
    unseen_note_pending_ = false;
    UnmodelledBlock block;
    block.thread = unseen_note_thread_;
    block.step = unseen_note_step_;
    block.where = unseen_note_;
    if (block_observer_ != nullptr)
      block_observer_(block, block_observer_context_);
    blocks_.push_back(std::move(block));
  }
  // Sizes of the last run's decision list and trace: the next run reserves
  // them up front instead of growing both vectors step by step.
  std::size_t last_decisions_ = 0;
  std::size_t last_rows_ = 0;

  void set_current(int t) { store_unseen(&current_, t); }
};

// Thread-local on purpose: the scheduler driving this OS thread's logical
// threads (the fibers of the caller's thread, or this OS thread of a run),
// set for the length of one run (plumbing, not state a run leaves).
extern constinit thread_local SchedulerCore* t_active;
// The logical thread this OS thread runs (Substrate::kOsThreads), else -1.
extern constinit thread_local int t_me;
// The run (SchedulerCore::generation_) this OS thread belongs to.
extern constinit thread_local int t_generation;
// This OS thread's OsThread::free word (Substrate::kOsThreads), else null.
extern constinit thread_local int* t_free;

// Sets t_active and tells the interposer whether this OS thread takes part in
// a run (it never asks other threads' questions of a scheduler that may be
// going away).
void set_active(SchedulerCore* core);

[[noreturn]] void die(const char* message);

// Waits until the OS thread `tid` of this process, whose logical thread
// finished, is gone (its last steps: thread-specific destructors,
// ThreadSanitizer's end of the thread, the kernel's release of the robust
// mutexes it held), at most 5 seconds.
void wait_until_gone(long tid);

// The access of taking or releasing `lock` in `mode`: shared ones commute.
inline PointAccess lock_access(const void* lock, LockMode mode) {
  return {ObjectKind::kLock, lock,
          mode == LockMode::kShared ? AccessKind::kRead : AccessKind::kWrite};
}

// A logical thread as an object (its end, a join of it).
inline const void* thread_object(int thread) {
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(thread) + 1);
}

// The OS threads of a controlled run take turns: only the one that holds the
// baton runs. On one CPU a hand-off is a switch on that CPU's run queue;
// across CPUs it is a wake-up sent to another CPU (an interprocessor
// interrupt, on a virtual machine an exit to the hypervisor), which then has
// to be scheduled there. So a run's threads all run on the CPU its caller was
// on when the run began; the caller gets its own affinity back at the end.
// Nothing of the run's semantics changes: one thread runs at a time anyway.
// A caller already bound to one CPU (a case's child process binds itself
// once, at its start: pin_process_to_one_cpu) is left as it is, and its
// threads inherit its CPU: a run then changes no affinity at all, and a
// process killed in the middle of its runs is never inside that system call.
class PinnedToOneCpu {
 public:
  explicit PinnedToOneCpu(bool enabled) {
    if (!enabled) return;
    if (sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    if (CPU_COUNT(&saved_) == 1) return;  // bound already: nothing to do
    cpu_ = sched_getcpu();
    if (cpu_ < 0 || !pin_calling_thread(cpu_)) cpu_ = -1;
  }
  ~PinnedToOneCpu() {
    if (cpu_ >= 0) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  PinnedToOneCpu(const PinnedToOneCpu&) = delete;
  PinnedToOneCpu& operator=(const PinnedToOneCpu&) = delete;
  // The CPU the run's threads must bind themselves to; -1 when they need not
  // (their creator was bound to one CPU before the run, or binding failed).
  int cpu() const { return cpu_; }

  static bool pin_calling_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
  }

 private:
  int cpu_ = -1;
  cpu_set_t saved_{};
};

}  // namespace racelab::sched::internal

#endif  // RACELAB_SCHED_SCHEDULER_CORE_H_
