// The controlled scheduler: logical threads run as fibers on the calling OS
// thread and a Strategy decides every switch, so a run is serial, deterministic
// and replayable from its decision list.
//
// Scheduling points are the racelab sync operations (through SchedulingHooks),
// racelab::yield_point(), the start of the run and the end of each thread.
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
// One controlled run per process at a time (the sync hooks are global), on
// any OS thread; subjects must not use racelab sync types from other OS
// threads during a run.
#ifndef RACELAB_SCHED_SCHEDULER_H_
#define RACELAB_SCHED_SCHEDULER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/sched/fiber.h"
#include "racelab/sched/strategy.h"
#include "racelab/sched/trace.h"
#include "racelab/scheduling_hooks.h"

namespace racelab::sched {

struct SchedulerOptions {
  int max_steps = 100000;  // scheduling decisions before a run is cut off
  std::size_t stack_size = Fiber::kDefaultStackSize;  // per logical thread
};

struct RunResult {
  enum class Status { kCompleted, kDeadlock, kStepLimit };

  Status status = Status::kCompleted;
  // The wait-for cycle, one line per thread on it, e.g. "thread 0 waits for
  // 'state.mu' (exclusive), held by thread 0 (shared)"; lines for blocked
  // threads off the cycle start with "also blocked: ". Empty unless kDeadlock.
  std::string deadlock_report;
  std::vector<int> decisions;  // the thread chosen at every scheduling point
  // For every decision, the operation the chosen thread is at (the index it
  // last passed to ControlledScheduler::begin_operation; -1 before that): the
  // turn the decision begins runs that operation. Lets a program shrinker drop
  // exactly the turns of an operation it removes.
  std::vector<int> decision_operations;
  int preemptions = 0;  // switches away from a thread that could have gone on
  Trace trace;
  std::vector<std::string> thread_errors;  // "thread 1 threw: boom"
  bool more_schedules = false;             // what strategy.end_schedule() said
};

// "completed", "deadlock", "step limit".
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
};

// Called at every decision of a run, after the strategy picked; must not
// throw, nor call back into the scheduler. Runs inside the scheduler's
// bookkeeping, hidden from TSan.
using SwitchObserver = void (*)(const SwitchEvent& event, void* context);

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

  // Installs (or, with nullptr, removes) the observer of every scheduling
  // decision, e.g. a fuzz target's interleaving coverage. Not during a run.
  void set_switch_observer(SwitchObserver observer, void* context = nullptr);

  // Adds an operation row to the trace for the current logical thread; does
  // nothing outside a controlled run. Not a scheduling point.
  static void note(std::string text);

  // Marks that the running logical thread is about to start operation `index`
  // of its program: call it just before the operation's scheduling point
  // (RunResult::decision_operations). Not a scheduling point; does nothing
  // outside a controlled run.
  static void begin_operation(int index);

  // The running logical thread, or -1 when not inside a controlled run.
  static int current_thread();

  // SchedulingHooks, called by racelab::Mutex, SharedMutex and yield_point().
  void yield_point(const char* what) override;
  void block_on(const void* lock, const char* lock_name,
                LockMode mode) override;
  void acquired(const void* lock, const char* lock_name,
                LockMode mode) override;
  void released(const void* lock, LockMode mode) override;

 private:
  std::unique_ptr<internal::SchedulerCore> core_;
};

// Hides the memory accesses of the running fiber from ThreadSanitizer while it
// lives: for harness bookkeeping that several logical threads touch
// (histories, counters), never for subject code. It must not span a
// scheduling point (no lock operation or yield_point inside). No-op without
// TSan.
class HarnessScope {
 public:
  HarnessScope();
  ~HarnessScope();
  HarnessScope(const HarnessScope&) = delete;
  HarnessScope& operator=(const HarnessScope&) = delete;
};

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SCHEDULER_H_
