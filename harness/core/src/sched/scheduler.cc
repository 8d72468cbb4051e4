// The controlled scheduler: runs logical threads as fibers, asks the strategy
// at every scheduling point, tracks locks to detect deadlocks, and records the
// decisions and the trace.
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
#include "racelab/sched/scheduler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "racelab/progress.h"

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
#endif
#ifdef RACELAB_SCHED_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define RACELAB_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))

namespace racelab::sched {

HarnessScope::HarnessScope() {
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_begin();
#endif
}

HarnessScope::~HarnessScope() {
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_end();
#endif
}

std::string_view to_string(RunResult::Status status) {
  switch (status) {
    case RunResult::Status::kCompleted:
      return "completed";
    case RunResult::Status::kDeadlock:
      return "deadlock";
    case RunResult::Status::kStepLimit:
      return "step limit";
  }
  return "unknown";
}

namespace internal {

class SchedulerCore {
 public:
  SchedulerCore(ControlledScheduler* hooks, SchedulerOptions options)
      : hooks_(hooks), options_(options) {}

  RunResult run(const std::vector<std::function<void()>>& threads,
                Strategy& strategy);

  void yield_point(const char* what);
  void block_on(const void* lock, const char* lock_name, LockMode mode);
  void acquired(const void* lock, const char* lock_name, LockMode mode);
  void released(const void* lock, LockMode mode);
  void note(std::string&& text);
  void begin_operation(int index);
  void set_switch_observer(SwitchObserver observer, void* context) {
    observer_ = observer;
    observer_context_ = context;
  }

  // The fiber entry: runs whichever logical thread it is given, once per run.
  static void fiber_main(void* core);

  int current() const { return current_.load(std::memory_order_relaxed); }

 private:
  enum class Status { kRunnable, kBlocked, kFinished };
  struct LogicalThread {
    const std::function<void()>* body = nullptr;
    Status status = Status::kRunnable;
    bool started = false;
    const void* waiting_for = nullptr;
    LockMode waiting_mode = LockMode::kExclusive;
    const char* site = "start";  // the scheduling point it stopped at last
    int operation = -1;          // from begin_operation()
  };
  struct Holder {
    int thread;
    LockMode mode;
  };
  struct LockState {
    const char* name = "lock";
    std::vector<Holder> holders;
  };

  static constexpr int kMaxThreads = 1024;
  static constexpr int kToCaller = -1;  // "thread" -1: the caller of run()

  int enter_hook(const char* hook) const;
  void run_thread();
  void run_body(int me);
  int decide(int me, const char* what);
  int end_run();
  Fiber* fiber_of(int thread) const;
  void add_row(int thread, TraceKind kind, std::string text);
  // A lock row: its text ("<verb> 'name'", " (shared)") and its lock fields.
  void add_lock_row(int thread, TraceKind kind, const char* verb,
                    const char* lock_name, LockMode mode);
  std::string describe_wait(int thread) const;
  std::string describe_deadlock() const;
  void forget_abandoned_locks();
  void recycle_abandoned_fibers();

  ControlledScheduler* const hooks_;
  const SchedulerOptions options_;
  SwitchObserver observer_ = nullptr;
  void* observer_context_ = nullptr;

  // Kept from run to run.
  std::vector<std::unique_ptr<Fiber>> fibers_;

  // State of the current run.
  std::unique_ptr<Fiber> caller_;  // the context that called run()
  Strategy* strategy_ = nullptr;
  std::vector<LogicalThread> threads_;
  std::unordered_map<const void*, LockState> locks_;
  std::vector<int> enabled_;
  std::vector<int> decisions_;
  std::vector<int> decision_operations_;  // parallel to decisions_
  int preemptions_ = 0;
  RunResult::Status status_ = RunResult::Status::kCompleted;
  std::string deadlock_report_;
  Trace trace_;
  std::vector<std::string> thread_errors_;
  std::exception_ptr error_;
  std::atomic<int> current_{-1};
  // Sizes of the last run's decision list and trace: the next run reserves
  // them up front instead of growing both vectors step by step.
  std::size_t last_decisions_ = 0;
  std::size_t last_rows_ = 0;
};

namespace {

// Thread-local on purpose: the scheduler driving this OS thread's fibers,
// set for the length of one run (fiber plumbing, not state a run leaves).
thread_local SchedulerCore* t_active = nullptr;

[[noreturn]] void die(const char* message) {
  std::fprintf(stderr, "racelab: controlled scheduler: %s\n", message);
  std::abort();
}

const char* mode_name(LockMode mode) {
  return mode == LockMode::kShared ? "shared" : "exclusive";
}

std::string quoted(const char* name) {
  return std::string("'") + (name != nullptr ? name : "?") + "'";
}

// "<verb> '<name>'" plus " (shared)" for a shared lock: the text of a lock row,
// built in one allocation (a row per lock operation is the scheduler's most
// frequent string).
std::string lock_row(const char* verb, const char* name, LockMode mode) {
  const char* shown = name != nullptr ? name : "?";
  const char* suffix = mode == LockMode::kShared ? " (shared)" : "";
  std::string text;
  text.reserve(std::strlen(verb) + std::strlen(shown) + std::strlen(suffix) +
               3);
  text.append(verb).append(" '").append(shown).append("'").append(suffix);
  return text;
}

#ifdef RACELAB_SCHED_ASAN
// LeakSanitizer does not scan fiber stacks. The frames of an abandoned
// (deadlocked) thread still reference the heap it owned, as a deadlocked real
// thread's stack would, so instead of reusing its stack we keep it mapped and
// register it as a root region until exit. Bounded; past the bound the fiber
// is simply destroyed.
void retire_abandoned_fiber(std::unique_ptr<Fiber> fiber) {
  // Process-wide on purpose (not per Session): a retired stack stays a root
  // region until the process exits, whichever run abandoned it.
  constexpr std::size_t kMaxRetired = 4096;
  static std::mutex* const mu = new std::mutex;
  static std::vector<Fiber*>* const retired = new std::vector<Fiber*>;
  std::lock_guard<std::mutex> lock(*mu);
  if (retired->size() >= kMaxRetired) return;
  __lsan_register_root_region(fiber->stack_bottom(), fiber->stack_size());
  retired->push_back(fiber.release());
}
#endif

}  // namespace

RACELAB_NO_SANITIZE_THREAD void SchedulerCore::fiber_main(void* core) {
  auto* self = static_cast<SchedulerCore*>(core);
  for (;;) self->run_thread();
}

Fiber* SchedulerCore::fiber_of(int thread) const {
  return thread >= 0 ? fibers_[static_cast<std::size_t>(thread)].get()
                     : caller_.get();
}

int SchedulerCore::enter_hook(const char* hook) const {
  if (t_active != this) {
    std::fprintf(stderr,
                 "racelab: controlled scheduler: %s was called on an OS thread "
                 "the scheduler does not run (in controlled mode every logical "
                 "thread is a fiber of the thread that called run())\n",
                 hook);
    std::abort();
  }
  const int me = current();
  if (me < 0) die("a scheduling hook was called outside a logical thread");
  return me;
}

void SchedulerCore::add_row(int thread, TraceKind kind, std::string text) {
  const int step =
      decisions_.empty() ? 0 : static_cast<int>(decisions_.size()) - 1;
  trace_.rows.push_back(TraceRow(step, thread, kind, std::move(text)));
}

void SchedulerCore::add_lock_row(int thread, TraceKind kind, const char* verb,
                                 const char* lock_name, LockMode mode) {
  add_row(thread, kind, lock_row(verb, lock_name, mode));
  TraceRow& row = trace_.rows.back();
  row.lock = lock_name != nullptr ? lock_name : "?";
  row.shared = mode == LockMode::kShared;
}

// Harness scope held. Returns the thread to run next (possibly `me`), or
// kToCaller when the run is over.
int SchedulerCore::decide(int me, const char* what) {
  enabled_.clear();
  bool all_finished = true;
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
    const Status status = threads_[static_cast<std::size_t>(t)].status;
    if (status == Status::kRunnable) enabled_.push_back(t);
    if (status != Status::kFinished) all_finished = false;
  }
  if (enabled_.empty()) {
    if (all_finished) {
      status_ = RunResult::Status::kCompleted;
    } else {
      status_ = RunResult::Status::kDeadlock;
      deadlock_report_ = describe_deadlock();
    }
    return end_run();
  }
  if (static_cast<int>(decisions_.size()) >= options_.max_steps) {
    status_ = RunResult::Status::kStepLimit;
    if (me >= 0) {
      add_row(me, TraceKind::kSwitch,
              "stopped: step limit (" + std::to_string(options_.max_steps) +
                  " steps)");
    }
    return end_run();
  }
  note_progress();
  int next;
  try {
    next = strategy_->pick(enabled_, me);
  } catch (...) {
    error_ = std::current_exception();
    return end_run();
  }
  if (std::find(enabled_.begin(), enabled_.end(), next) == enabled_.end()) {
    error_ = std::make_exception_ptr(ScheduleError(
        "strategy '" + std::string(strategy_->name()) + "' picked thread " +
        std::to_string(next) + ", which is not enabled, at step " +
        std::to_string(decisions_.size())));
    return end_run();
  }
  const bool me_enabled =
      me >= 0 &&
      threads_[static_cast<std::size_t>(me)].status == Status::kRunnable;
  if (me_enabled && next != me) {
    ++preemptions_;
    add_row(me, TraceKind::kSwitch,
            std::string("preempted at ") + quoted(what));
  }
  if (me >= 0) threads_[static_cast<std::size_t>(me)].site = what;
  if (observer_ != nullptr) {
    const SwitchEvent event{me, what, next,
                            threads_[static_cast<std::size_t>(next)].site,
                            me_enabled && next != me};
    observer_(event, observer_context_);
  }
  decisions_.push_back(next);
  decision_operations_.push_back(
      threads_[static_cast<std::size_t>(next)].operation);
  threads_[static_cast<std::size_t>(next)].started = true;
  current_.store(next, std::memory_order_relaxed);
  return next;
}

int SchedulerCore::end_run() {
  current_.store(-1, std::memory_order_relaxed);
  return kToCaller;
}

RunResult SchedulerCore::run(const std::vector<std::function<void()>>& threads,
                             Strategy& strategy) {
  if (t_active != nullptr) {
    throw std::logic_error(
        "ControlledScheduler::run called inside a controlled run");
  }
  if (active_scheduling_hooks() != nullptr) {
    throw std::logic_error(
        "ControlledScheduler::run: scheduling hooks are already installed "
        "(one controlled run per process at a time)");
  }
  if (threads.size() > static_cast<std::size_t>(kMaxThreads)) {
    throw std::invalid_argument("ControlledScheduler::run: more than " +
                                std::to_string(kMaxThreads) + " threads");
  }
  const int count = static_cast<int>(threads.size());

  threads_.assign(threads.size(), LogicalThread{});
  for (std::size_t i = 0; i < threads.size(); ++i) {
    threads_[i].body = &threads[i];
  }
  locks_.clear();
  decisions_.clear();
  decisions_.reserve(last_decisions_);
  decision_operations_.clear();
  decision_operations_.reserve(last_decisions_);
  preemptions_ = 0;
  status_ = RunResult::Status::kCompleted;
  deadlock_report_.clear();
  trace_ = Trace{count, {}};
  trace_.rows.reserve(last_rows_);
  thread_errors_.clear();
  error_ = nullptr;
  if (fibers_.size() < threads.size()) fibers_.resize(threads.size());
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (fibers_[i] != nullptr) continue;
    fibers_[i] = std::make_unique<Fiber>(&SchedulerCore::fiber_main, this,
                                         options_.stack_size);
    fibers_[i]->set_name("racelab thread " + std::to_string(i));
  }
  caller_ = Fiber::for_current_thread();

  strategy.begin_schedule(count);
  strategy_ = &strategy;
  t_active = this;
  set_active_scheduling_hooks(hooks_);
  // Spawn: the caller's past happens before every thread, all edges made up
  // front so that no thread inherits another's history through the caller.
  for (std::size_t i = 0; i < threads.size(); ++i) {
    caller_->release_to(*fibers_[i]);
  }
  Fiber* first;
  {
    HarnessScope harness;
    first = fiber_of(decide(kToCaller, "start"));
  }
  if (first != caller_.get()) caller_->switch_to(*first);
  // The run is over. Join: every thread's past, finished or abandoned,
  // happens before what the caller does next.
  forget_abandoned_locks();
  for (std::size_t i = 0; i < threads.size(); ++i) {
    caller_->acquire_from(*fibers_[i]);
  }
  set_active_scheduling_hooks(nullptr);
  t_active = nullptr;
  strategy_ = nullptr;
  recycle_abandoned_fibers();
  caller_.reset();

  if (error_ != nullptr) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    std::rethrow_exception(error);
  }
  last_decisions_ = decisions_.size();
  last_rows_ = trace_.rows.size();
  RunResult result;
  result.status = status_;
  result.deadlock_report = std::move(deadlock_report_);
  result.decisions = std::move(decisions_);
  result.decision_operations = std::move(decision_operations_);
  result.preemptions = preemptions_;
  result.trace = std::move(trace_);
  result.thread_errors = std::move(thread_errors_);
  decisions_.clear();
  decision_operations_.clear();
  trace_ = Trace{};
  result.more_schedules = strategy.end_schedule();
  return result;
}

#ifdef RACELAB_SCHED_TSAN
namespace {
struct HeldLock {
  const void* lock;
  LockMode mode;
};
// Runs as the abandoned thread's TSan context, before the join, so that the
// caller's later use of the lock's memory comes after it.
RACELAB_NO_SANITIZE_THREAD void release_in_tsan(void* arg) {
  const auto* held = static_cast<const HeldLock*>(arg);
  void* address = const_cast<void*>(held->lock);
  const unsigned flags =
      held->mode == LockMode::kShared ? __tsan_mutex_read_lock : 0;
  __tsan_mutex_pre_unlock(address, flags);
  __tsan_mutex_post_unlock(address, flags);
}
}  // namespace
#endif

// An abandoned thread never releases its locks. The real primitives stay
// locked (the store is in whatever state the deadlock left), but TSan must not
// keep them locked by a context that is about to be recycled: a new mutex built
// later at the same stack address would be reported as a "double lock", a
// locked rwlock's destruction as "destroy of a locked mutex". The hooks pass
// the racelab::Mutex / SharedMutex itself, whose std primitive is its first
// member, so the lock's address is the address TSan knows.
void SchedulerCore::forget_abandoned_locks() {
#ifdef RACELAB_SCHED_TSAN
  for (const auto& [lock, state] : locks_) {
    for (const Holder& holder : state.holders) {
      const LogicalThread& thread =
          threads_[static_cast<std::size_t>(holder.thread)];
      if (thread.status == Status::kFinished) continue;
      HeldLock held{lock, holder.mode};
      caller_->run_as(*fibers_[static_cast<std::size_t>(holder.thread)],
                      &release_in_tsan, &held);
    }
  }
#endif
}

void SchedulerCore::recycle_abandoned_fibers() {
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    const LogicalThread& thread = threads_[i];
    if (!thread.started || thread.status == Status::kFinished) continue;
      // Stopped in the middle of its function: never resume it.
#ifdef RACELAB_SCHED_ASAN
    retire_abandoned_fiber(std::move(fibers_[i]));
    fibers_[i].reset();
#else
    fibers_[i]->restart();
#endif
  }
}

void SchedulerCore::run_thread() {
  const int me = current();
  run_body(me);
  Fiber* from;
  Fiber* to;
  {
    HarnessScope harness;
    threads_[static_cast<std::size_t>(me)].status = Status::kFinished;
    add_row(me, TraceKind::kSwitch, "finished");
    to = fiber_of(decide(me, "finish"));
    from = fiber_of(me);
  }
  // A finished thread is not enabled, so `to` is another fiber or the caller.
  // This fiber is resumed only when a later run gives it a new thread.
  from->switch_to(*to);
}

void SchedulerCore::run_body(int me) {
  const std::function<void()>* body;
  {
    HarnessScope harness;
    body = threads_[static_cast<std::size_t>(me)].body;
  }
  std::string error;
  try {
    (*body)();
    return;
  } catch (const std::exception& e) {
    error = std::string("threw: ") + e.what();
  } catch (...) {
    error = "threw an exception that is not a std::exception";
  }
  HarnessScope harness;
  thread_errors_.push_back("thread " + std::to_string(me) + " " + error);
  add_row(me, TraceKind::kException, error);
}

void SchedulerCore::yield_point(const char* what) {
  const int me = enter_hook("yield_point");
  Fiber* from;
  Fiber* to;
  {
    HarnessScope harness;
    to = fiber_of(decide(me, what));
    from = fiber_of(me);
  }
  if (to != from) from->switch_to(*to);
}

void SchedulerCore::block_on(const void* lock, const char* lock_name,
                             LockMode mode) {
  const int me = enter_hook("block_on");
  Fiber* from;
  Fiber* to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    thread.status = Status::kBlocked;
    thread.waiting_for = lock;
    thread.waiting_mode = mode;
    LockState& state = locks_[lock];
    state.name = lock_name;
    add_lock_row(me, TraceKind::kLockWaited, "blocked on", lock_name, mode);
    to = fiber_of(decide(me, "block"));
    from = fiber_of(me);
  }
  // Resumed once a release made this thread runnable again and the strategy
  // picked it: the caller retries its try-lock.
  if (to != from) from->switch_to(*to);
}

void SchedulerCore::acquired(const void* lock, const char* lock_name,
                             LockMode mode) {
  const int me = enter_hook("acquired");
  HarnessScope harness;
  LockState& state = locks_[lock];
  state.name = lock_name;
  state.holders.push_back(Holder{me, mode});
  add_lock_row(me, TraceKind::kLockAcquired, "acquired", lock_name, mode);
}

void SchedulerCore::released(const void* lock, LockMode mode) {
  const int me = enter_hook("released");
  HarnessScope harness;
  auto found = locks_.find(lock);
  if (found == locks_.end()) return;  // taken before the run: not tracked
  LockState& state = found->second;
  auto holder = std::find_if(
      state.holders.begin(), state.holders.end(),
      [&](const Holder& h) { return h.thread == me && h.mode == mode; });
  if (holder == state.holders.end()) {
    holder = std::find_if(state.holders.begin(), state.holders.end(),
                          [&](const Holder& h) { return h.thread == me; });
  }
  if (holder != state.holders.end()) state.holders.erase(holder);
  add_lock_row(me, TraceKind::kLockReleased, "released", state.name, mode);
  // Waiters retry; those that still find the lock busy block again.
  for (LogicalThread& thread : threads_) {
    if (thread.status == Status::kBlocked && thread.waiting_for == lock) {
      thread.status = Status::kRunnable;
      thread.waiting_for = nullptr;
    }
  }
}

void SchedulerCore::note(std::string&& text) {
  const int me = current();
  if (me < 0) return;
  HarnessScope harness;
  add_row(me, TraceKind::kOperation, std::move(text));
}

void SchedulerCore::begin_operation(int index) {
  const int me = current();
  if (me < 0) return;
  HarnessScope harness;
  threads_[static_cast<std::size_t>(me)].operation = index;
}

std::string SchedulerCore::describe_wait(int thread) const {
  const LogicalThread& waiter = threads_[static_cast<std::size_t>(thread)];
  auto found = locks_.find(waiter.waiting_for);
  std::string line = "thread " + std::to_string(thread) + " waits for " +
                     quoted(found != locks_.end() ? found->second.name : "?") +
                     " (" + mode_name(waiter.waiting_mode) + "), held by ";
  if (found == locks_.end() || found->second.holders.empty()) {
    return line + "no thread of this run";
  }
  bool first = true;
  for (const Holder& holder : found->second.holders) {
    if (!first) line += ", ";
    first = false;
    line += "thread " + std::to_string(holder.thread) + " (" +
            mode_name(holder.mode);
    if (threads_[static_cast<std::size_t>(holder.thread)].status ==
        Status::kFinished) {
      line += ", finished";
    }
    line += ")";
  }
  return line;
}

std::string SchedulerCore::describe_deadlock() const {
  const int count = static_cast<int>(threads_.size());
  // Wait-for graph: a blocked thread points at the blocked holders of the
  // lock it waits for. Find a cycle by depth-first search.
  auto successors = [&](int thread) {
    std::vector<int> out;
    auto found =
        locks_.find(threads_[static_cast<std::size_t>(thread)].waiting_for);
    if (found == locks_.end()) return out;
    for (const Holder& holder : found->second.holders) {
      if (threads_[static_cast<std::size_t>(holder.thread)].status ==
              Status::kBlocked &&
          std::find(out.begin(), out.end(), holder.thread) == out.end()) {
        out.push_back(holder.thread);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  std::vector<int> color(static_cast<std::size_t>(count), 0);  // 1 on path
  std::vector<int> path;
  std::vector<int> cycle;
  std::function<bool(int)> visit = [&](int thread) {
    color[static_cast<std::size_t>(thread)] = 1;
    path.push_back(thread);
    for (int next : successors(thread)) {
      if (color[static_cast<std::size_t>(next)] == 1) {
        cycle.assign(std::find(path.begin(), path.end(), next), path.end());
        return true;
      }
      if (color[static_cast<std::size_t>(next)] == 0 && visit(next)) {
        return true;
      }
    }
    color[static_cast<std::size_t>(thread)] = 2;
    path.pop_back();
    return false;
  };
  for (int t = 0; t < count && cycle.empty(); ++t) {
    if (threads_[static_cast<std::size_t>(t)].status == Status::kBlocked &&
        color[static_cast<std::size_t>(t)] == 0) {
      visit(t);
    }
  }
  if (!cycle.empty()) {
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()),
                cycle.end());
  }
  std::string report;
  for (int thread : cycle) {
    if (!report.empty()) report += '\n';
    report += describe_wait(thread);
  }
  for (int t = 0; t < count; ++t) {
    if (threads_[static_cast<std::size_t>(t)].status != Status::kBlocked ||
        std::find(cycle.begin(), cycle.end(), t) != cycle.end()) {
      continue;
    }
    if (!report.empty()) report += '\n';
    if (!cycle.empty()) report += "also blocked: ";
    report += describe_wait(t);
  }
  return report;
}

}  // namespace internal

ControlledScheduler::ControlledScheduler(SchedulerOptions options) {
  if (options.max_steps < 1) {
    throw std::invalid_argument("SchedulerOptions::max_steps must be >= 1");
  }
  if (options.stack_size < 16 * 1024) {
    throw std::invalid_argument(
        "SchedulerOptions::stack_size must be at least 16 KiB");
  }
  core_ = std::make_unique<internal::SchedulerCore>(this, options);
}

ControlledScheduler::~ControlledScheduler() = default;

RunResult ControlledScheduler::run(
    const std::vector<std::function<void()>>& threads, Strategy& strategy) {
  return core_->run(threads, strategy);
}

void ControlledScheduler::set_switch_observer(SwitchObserver observer,
                                              void* context) {
  if (internal::t_active == core_.get()) {
    throw std::logic_error(
        "ControlledScheduler::set_switch_observer called during a run");
  }
  core_->set_switch_observer(observer, context);
}

void ControlledScheduler::note(std::string text) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->note(std::move(text));
  }
}

void ControlledScheduler::begin_operation(int index) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->begin_operation(index);
  }
}

int ControlledScheduler::current_thread() {
  internal::SchedulerCore* core = internal::t_active;
  return core != nullptr ? core->current() : -1;
}

void ControlledScheduler::yield_point(const char* what) {
  core_->yield_point(what);
}

void ControlledScheduler::block_on(const void* lock, const char* lock_name,
                                   LockMode mode) {
  core_->block_on(lock, lock_name, mode);
}

void ControlledScheduler::acquired(const void* lock, const char* lock_name,
                                   LockMode mode) {
  core_->acquired(lock, lock_name, mode);
}

void ControlledScheduler::released(const void* lock, LockMode mode) {
  core_->released(lock, mode);
}

}  // namespace racelab::sched
