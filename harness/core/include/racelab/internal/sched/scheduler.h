// The controlled scheduler: one logical thread runs at a time and a Strategy
// decides every switch, so a run is serial, deterministic and replayable from
// its decision list.
//
// Logical threads run on one of two substrates (Substrate): as fibers of the
// calling OS thread (cheapest; every logical thread shares that OS thread's
// identity, thread_local variables and thread id), or each on a real OS thread
// that runs only while it holds the scheduler's baton (thread_local, thread
// ids and per-thread caches are real; threads the run's code creates with
// std::thread or pthread_create become logical threads too). The decisions
// of a run do not depend on the substrate.
//
// Scheduling points are the interposed primitives and atomics
// (scheduling_hooks.h, through SchedulingHooks), racelab::yield_point(), the
// start of the run and the end of each thread.
// Happens-before models real threads and nothing else: switches made by the
// scheduler carry no TSan synchronization, so two threads' unsynchronized
// accesses are reported as a race although they never overlap; the start of
// the run synchronizes the caller with every thread (spawn) and the end
// synchronizes every thread with the caller (join), also when the run ends in
// a deadlock. When every live thread is blocked on a lock the run ends at once
// with kDeadlock and the wait-for cycle; the blocked threads are abandoned:
// never resumed, their destructors never run, the locks they hold stay locked
// (use a fresh store for the next schedule). TSan is told those locks are
// released, so the memory can be reused without false reports, and in ASan
// builds their stacks stay mapped as LeakSanitizer roots, as a deadlocked
// thread's stack would, so what their frames own is not reported as leaked.
//
// Blocking is modelled: a thread blocked on a lock, a condition variable or a
// join is not scheduled until it can proceed; a timed wait (wait_for,
// try_lock_for) whose deadline is near (Timeout) stays schedulable, and being
// scheduled before it is woken is its timeout; a far one times out only when
// no thread can go on without time passing, the earliest deadline first.
// Fairness: a thread whose last `spin_bound` scheduling points changed nothing
// (PointEffect::kNoProgress) is skipped while another thread can run, until
// some thread makes progress, so spin loops end.
//
// Blocking the scheduler does not model (a raw futex, a read of a pipe, a
// library built without TSan) is watched on OS threads: a thread of the run
// (not a logical thread) looks every `block_poll_ms` whether the thread
// holding the baton made no decision and sleeps in the kernel (state 'S' in
// /proc) while no other thread of the process is runnable; after
// `block_polls` such looks in a row it takes the baton from it on its behalf
// (an UnmodelledBlock of the RunResult) and the others run. The blocked
// thread runs free until its next scheduling point, where it waits to be
// readmitted; when no other thread can run, the run waits for it.
//
// One controlled run per process at a time (the sync hooks are global), on
// any OS thread; threads outside the run are left alone.
#ifndef RACELAB_SCHED_SCHEDULER_H_
#define RACELAB_SCHED_SCHEDULER_H_

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/internal/sched/fiber.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/sched/substrate.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/internal/scheduling_hooks.h"

namespace racelab::sched {

// The first frame of `stack` (return addresses, innermost first) outside the
// standard library, the pthread layer and racelab, as the sanitizer's
// symbolizer names it: "in Store::put(int) store.cc:31"; "" without a
// symbolizer or without such a frame.
std::string first_user_frame(const std::vector<const void*>& stack);

// Binds the calling thread, and so every thread it starts from now on, to the
// CPU it is running on, unless it is bound to one CPU already; false when the
// system refuses. For a process that makes many controlled runs on OS threads
// (a case's child): its runs then skip the binding each run would otherwise
// make and undo (see PinnedToOneCpu in scheduler_core.h).
bool pin_process_to_one_cpu();

struct SchedulerOptions {
  // A run is a livelock (Status::kStepLimit) once max_steps scheduling
  // decisions in a row made no progress (no store, lock changing hands,
  // wake-up, notify, post, join, thread end, nor time passing: a sleep or a
  // timed wait that timed out) and there is evidence that no thread can
  // progress: every thread that can run polled in that stretch
  // (RunResult::LivelockEvidence); without it the run goes on. A run is cut
  // after max_total_steps decisions in all (or max_steps, if more), progress
  // or not (Status::kLengthLimit: inconclusive, not a finding).
  int max_steps = 100000;
  std::int64_t max_total_steps = 10'000'000;
  std::size_t stack_size = Fiber::kDefaultStackSize;  // per fiber
  // racelab's one default, defaults::kThreads (real OS threads); the fuzz
  // targets ask for fibers, the kit, the CLI and the gate pass their
  // request's substrate, and explore always runs on OS threads.
  Substrate substrate = defaults::kThreads;
  // No-progress points after which a thread gives way to every thread that
  // can run and has not given way, until some thread makes progress; once
  // every thread that can run has given way, a new round begins and every
  // count starts again (0: no fairness bound).
  int spin_bound = 64;
  // Substrate::kOsThreads: watch for blocking the scheduler does not model
  // (see the top of this file); 0 polls: do not watch.
  int block_poll_ms = 20;
  int block_polls = 10;
  // The memory-model mode (docs/controlled-mode.md): an atomic load may read
  // any store the C++ memory model allows (within the fragment of
  // memory_model.h), which one being a decision of the schedule
  // (Strategy::pick_value). Needs the atomics seen through TSan's entry
  // points (a TSan build); elsewhere it changes nothing.
  bool memory_model = false;
};

// racelab's limits on a run_program() run, the first thread included: the
// logical threads alive at once (created and not finished), and the logical
// threads created over the run (each is a thread number in the trace and in
// schedule files). Both lie above what ThreadSanitizer runs: LLVM 14's
// thread registry has no limit of its own, and a process under Linux's
// default limits (vm.max_map_count 65530, two mappings per thread stack;
// kernel.pid_max 32768) cannot hold 65,536 threads at once; a run that
// creates 2^20 threads makes more decisions than a whole program's channel
// records (program_channel::Channel::kMaxDecisions). pthread_create past one
// fails with EAGAIN, and says on stderr that the limit is racelab's; past
// what the system allows it fails as it does in a plain run.
inline constexpr int kMaxLiveProgramThreads = 1 << 16;
inline constexpr int kMaxProgramThreads = 1 << 20;
// The threads a run_program() run's strategy is told of when a schedule
// begins (Strategy::begin_schedule); the threads the program creates past
// them are met as they come (PctStrategy gives them priorities then).
inline constexpr int kProgramThreadsAtBegin = 1024;

// A thread that held the baton and blocked in the kernel outside every
// scheduling point, whose turn the scheduler ended on its behalf.
struct UnmodelledBlock {
  int thread = -1;  // the logical thread
  int step = 0;     // the decision its turn ended at (counted from 0)
  // Where: "thread 1 blocked in the system call read at f() prog.cc:12,
  // after its scheduling point 'spawn'".
  std::string where;
};

struct RunResult {
  enum class Status { kCompleted, kDeadlock, kStepLimit, kLengthLimit };
  // What makes a kStepLimit run a livelock, beyond its length: every thread
  // that can run polled without progress since the last progress (each had
  // turns, and the state they see recurs), or only one thread can run and it
  // polls (the others are blocked or finished: none can progress).
  enum class LivelockEvidence { kNone, kStateRecurs, kNoThreadCanProgress };

  Status status = Status::kCompleted;
  // The wait-for cycle, one line per thread on it, e.g. "thread 0 waits for
  // 'state.mu' (exclusive), held by thread 0 (shared)"; lines for blocked
  // threads off the cycle start with "also blocked: ". Empty unless kDeadlock.
  std::string deadlock_report;
  // For a deadlock: one line per lock or condition variable waited for, with
  // its address and where the run first took it ("'mutex 2' at 0x7b04...,
  // first taken in transfer(...) bank.cc:12"). Not deterministic.
  std::string deadlock_locks;
  std::vector<int> decisions;  // the thread chosen at every scheduling point
  // For every decision, the operation the chosen thread is at (the index it
  // last passed to ControlledScheduler::begin_operation; -1 before that): the
  // turn the decision begins runs that operation. Lets a program shrinker drop
  // exactly the turns of an operation it removes.
  std::vector<int> decision_operations;
  int preemptions = 0;  // switches away from a thread that could have gone on
  // Inner scheduling points (PointKind::kInner): locks, atomics, waits,
  // yields inside the code under test, not an operation's start, a pause or
  // a thread's end. None at all means only whole operations interleave.
  int inner_points = 0;
  // Fairness took a choice away: a sleep or a yield gave way to another
  // thread, or a spinning thread waited while another could run. The run is
  // then one of fewer schedules than the program has, so a search that met
  // it is not exhaustive (a lost wake-up behind a sleep is one it can miss).
  bool fairness_cut = false;
  // The memory-model mode: whether the run had it (some decisions are then
  // which store a load read), and the loads that read an older store than
  // the latest.
  bool memory_model = false;
  int stale_reads = 0;
  Trace trace;
  std::vector<std::string> thread_errors;  // "thread 1 threw: boom"
  bool more_schedules = false;             // what strategy.end_schedule() said
  // kStepLimit: the decisions without progress it allows; kLengthLimit: the
  // decisions in all.
  std::int64_t limit = 0;
  // kStepLimit: its evidence, and the threads it names ("threads 0 and 1
  // polled ..."), for display.
  LivelockEvidence livelock_evidence = LivelockEvidence::kNone;
  std::string livelock_report;
  // Blocks outside the scheduler's view: the run's schedule depended on the
  // kernel's timing, so a search that saw one is not exhaustive.
  std::vector<UnmodelledBlock> unmodelled_blocks;
};

// The one line for a run cut off at `limit`: kStepLimit, the livelock
// finding, followed by `evidence` (RunResult::livelock_report); kLengthLimit,
// "cut at N decisions while making progress ...", the note of a run cut
// while still making progress (not a finding).
std::string limit_summary(RunResult::Status status, std::int64_t limit,
                          std::string_view evidence = {});

// "completed", "deadlock", "step limit", "length limit".
std::string_view to_string(RunResult::Status status);

// One scheduling decision, as a switch observer sees it. A site is the name
// of the scheduling point a thread stopped at ("op", "lock", "unlock_shared",
// "pause", "block", "finish", ...; "start" before its first turn). The
// pointers are valid only during the call.
struct SwitchEvent {
  int from_thread;        // the thread that reached the point; -1 at the start
  const char* from_site;  // where it stopped
  int to_thread;          // the thread picked to run next (may be from_thread)
  const char* to_site;    // where that thread stopped last
  bool preemption;        // from_thread could go on, another was picked
  // from_thread stopped right before its next operation begins (a
  // PointKind::kOperationStart point): from here on it is in that operation.
  bool from_operation_start;
  // The run's trace so far, every row of it complete; null when the run
  // keeps none (Strategy::records_trace). A whole program streams it, so
  // that a run that crashes later still tells its trace.
  const Trace* trace;
  // The memory-model mode: a decision of which store from_thread's load
  // reads (Strategy::pick_value), its index; to_thread is then from_thread.
  // -1 for the pick of a thread.
  int store = -1;
  // What the run's decision list records: the store, or the thread picked.
  int decision() const { return store >= 0 ? store : to_thread; }
};

// Called at every decision of a run, after the strategy picked; must not
// throw, nor call back into the scheduler. Runs inside the scheduler's
// bookkeeping, hidden from TSan.
using SwitchObserver = void (*)(const SwitchEvent& event, void* context);

// Called when the scheduler ends a blocked thread's turn (UnmodelledBlock),
// on the scheduler's watching thread; must not throw, nor call back into the
// scheduler. Runs inside the scheduler's bookkeeping, hidden from TSan.
using BlockObserver = void (*)(const UnmodelledBlock& block, void* context);

namespace internal {
class SchedulerCore;
}  // namespace internal

class ControlledScheduler final : public SchedulingHooks {
 public:
  explicit ControlledScheduler(SchedulerOptions options = {});
  ~ControlledScheduler() override;
  ControlledScheduler(const ControlledScheduler&) = delete;
  ControlledScheduler& operator=(const ControlledScheduler&) = delete;

  // Runs one schedule of `threads` (thread i runs threads[i]) under
  // `strategy`: calls strategy.begin_schedule(), asks it at every scheduling
  // point, then calls strategy.end_schedule(). A thread that throws is
  // recorded (trace row, thread_errors) and finishes. Throws ScheduleError
  // when the strategy cannot go on (e.g. an impossible replayed decision); the
  // run is then abandoned like a deadlocked one. Throws std::logic_error when
  // called during another controlled run. Fibers (stacks and TSan contexts)
  // are reused from one run to the next.
  RunResult run(const std::vector<std::function<void()>>& threads,
                Strategy& strategy);

  // Runs `main` as logical thread 0 on a new OS thread; every thread it (or a
  // thread it created) starts with std::thread or pthread_create becomes the
  // next logical thread, up to kMaxLiveProgramThreads alive at once and
  // kMaxProgramThreads in all (pthread_create then fails with EAGAIN). When
  // `main` returns, that is a scheduling point ("exit") where the other threads
  // may still run; once main is picked again the run ends, and threads still
  // running are abandoned, as a process exit ends them. The run also ends at a
  // deadlock or at the step limit. Needs Substrate::kOsThreads (throws
  // std::logic_error otherwise). The strategy is told
  // kProgramThreadsAtBegin threads.
  RunResult run_program(const std::function<void()>& main, Strategy& strategy);

  // A whole program's end of a run that main cannot go on from (a deadlock,
  // a limit, a schedule that cannot be followed: `error`), called on the
  // thread that ended it with the run's result. It ends the process and
  // never returns.
  using StrandedEnd = void (*)(RunResult& result, std::exception_ptr error,
                               void* context);
  // run_program for a whole program: `main` runs on the calling thread
  // itself (logical thread 0), so the process holds no thread of racelab's
  // waiting for it; a fork after the program joined its threads leaves the
  // process as single-threaded as it would be without racelab (only the
  // watch of unmodelled blocks pauses around it). Returns when main
  // returns; a run that ends otherwise ends in `stranded`. A process the
  // program forks leaves the run: it runs uncontrolled.
  RunResult run_program_here(const std::function<void()>& main,
                             Strategy& strategy, StrandedEnd stranded,
                             void* context);

  // Installs (or, with nullptr, removes) the observer of every scheduling
  // decision, e.g. a fuzz target's interleaving coverage. Not during a run.
  void set_switch_observer(SwitchObserver observer, void* context = nullptr);
  // Installs (or removes) the observer of unmodelled blocks. Not during a run.
  void set_block_observer(BlockObserver observer, void* context = nullptr);

  // Adds an operation row to the trace for the current logical thread; does
  // nothing outside a controlled run. Not a scheduling point.
  static void note(std::string text);
  // Whether the current controlled run keeps a trace (Strategy::
  // records_trace): a caller that builds a note's text checks it first.
  static bool tracing();

  // Marks that the running logical thread is about to start operation `index`
  // of its program: call it just before the operation's scheduling point
  // (RunResult::decision_operations). Not a scheduling point; does nothing
  // outside a controlled run.
  static void begin_operation(int index);

  // The running logical thread's step touched `access` (the engine's history
  // clock: every call and return takes a tick): part of its footprint
  // (Strategy::step_finished). Not a scheduling point; does nothing outside a
  // controlled run.
  static void touch(PointAccess access);

  // The running logical thread, or -1 when not inside a controlled run.
  static int current_thread();

  // The last step of the run (counted from 1, as decisions are) in which the
  // running logical thread touched a lock or an atomic; 0 when it has not,
  // or outside a controlled run. One thread runs at a time, so these steps
  // order the threads' last accesses to the store: for an operation that
  // takes effect under a lock, the order in which the operations took effect
  // (the linearizability check's first guess, Operation::effect_order).
  static std::uint64_t last_store_step();

  // SchedulingHooks, called by the interposed primitives and yield_point().
  bool owns_calling_thread() const override;
  void yield_point(const char* what, PointEffect effect) override;
  void access_point(const char* what, PointEffect effect, PointAccess access,
                    PointKind kind) override;
  void touched(PointAccess access) override;
  void progressed() override;
  bool models_memory() const override;
  unsigned long long atomic_loaded(const volatile void* address, int size,
                                   unsigned long long latest,
                                   MemoryOrder order) override;
  void atomic_stored(const volatile void* address, int size,
                     unsigned long long previous, unsigned long long value,
                     MemoryOrder order) override;
  void atomic_updated(const volatile void* address, int size,
                      unsigned long long old, bool wrote,
                      unsigned long long value, MemoryOrder order) override;
  void atomic_fence(MemoryOrder order) override;
  bool block_on(const void* lock, const char* lock_name, LockMode mode,
                Timeout timeout) override;
  void acquired(const void* lock, const char* lock_name,
                LockMode mode) override;
  bool holds_exclusively(const void* lock) const override;
  bool held_in_run(const void* lock) const override;
  void released(const void* lock, LockMode mode) override;
  void settle_robust_lock(const void* lock) override;
  void sleep_until(Timeout end) override;
  bool read_clock(clockid_t clock, timespec* now) override;
  void time_passes_until(Timeout end) override;
  bool cond_wait(const void* cond, Timeout timeout) override;
  void cond_notify(const void* cond, bool all) override;
  bool spawn(pthread_t* thread, const pthread_attr_t* attr,
             void* (*start)(void*), void* arg, int* result) override;
  bool object_wait(PointAccess object, Timeout timeout) override;
  int wake_object(const void* object, int at_most) override;
  int object_waiters(const void* object) const override;
  bool join(pthread_t thread, JoinWait wait, bool* finished,
            Timeout timeout) override;
  void detach(pthread_t thread) override;
  void cancel(pthread_t thread) override;
  bool another_thread_can_run() const override;
  void ran_unseen_code(const UnseenCall& call) override;

 private:
  std::unique_ptr<internal::SchedulerCore> core_;
};

// Hides the memory accesses of the running logical thread from
// ThreadSanitizer while it lives, and makes the locks and atomics it uses no
// scheduling points: for harness bookkeeping that several logical threads
// touch (histories, counters), never for subject code. Its atomics (up to 8
// bytes) are done natively, unseen by TSan, so they order nothing between
// threads; its locks TSan still sees. It must not span a scheduling point
// (no yield_point inside).
class HarnessScope {
 public:
  HarnessScope();
  ~HarnessScope();
  HarnessScope(const HarnessScope&) = delete;
  HarnessScope& operator=(const HarnessScope&) = delete;
};

// Returns `make()` computed inside a HarnessScope: for harness data (a
// decoded input, a history's copy of an operation) built or copied where
// TSan need not watch. The same rule holds: no scheduling point inside.
template <class Make>
auto unwatched(const Make& make) {
  HarnessScope harness;
  return make();
}

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SCHEDULER_H_
