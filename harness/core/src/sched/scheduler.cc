// The controlled scheduler's run loop: a run's set-up and result, the
// decision at every scheduling point (fairness, the step and length limits,
// the strategy's pick), the trace rows, and the hooks every point goes
// through. The state and the TSan discipline: scheduler_core.h.
#include <cxxabi.h>

#include "scheduler_core.h"

namespace racelab::sched::internal {

constinit thread_local SchedulerCore* t_active = nullptr;
constinit thread_local int t_me = -1;
constinit thread_local int t_generation = 0;
constinit thread_local int* t_free = nullptr;

void set_active(SchedulerCore* core) {
  t_active = core;
  interpose_internal::set_thread_in_run(core != nullptr);
}

[[noreturn]] void die(const char* message) {
  std::fprintf(stderr, "racelab: controlled scheduler: %s\n", message);
  std::abort();
}

namespace {

// "<verb> '<name>'" plus " (shared)" for a shared lock: the text of a lock row,
// built in one allocation (a row per lock operation is the scheduler's most
// frequent string).
std::string lock_row(const char* verb, const std::string& name, LockMode mode) {
  const char* suffix = mode == LockMode::kShared ? " (shared)" : "";
  std::string text;
  text.reserve(std::strlen(verb) + name.size() + std::strlen(suffix) + 3);
  text.append(verb).append(" '").append(name).append("'").append(suffix);
  return text;
}

}  // namespace

bool SchedulerCore::owns_calling_thread() const {
  if (t_active != this) return false;
  return os_threads() ? t_me >= 0 : current() >= 0;
}

int SchedulerCore::enter_hook(const char* hook) const {
  if (t_active != this) {
    std::fprintf(stderr,
                 "racelab: controlled scheduler: %s was called on an OS thread "
                 "the scheduler does not run\n",
                 hook);
    std::abort();
  }
  const int me = os_threads() ? t_me : current();
  if (me < 0) die("a scheduling hook was called outside a logical thread");
  return me;
}

void SchedulerCore::add_row(int thread, TraceKind kind, std::string text) {
  if (!tracing_) return;
  const int step =
      decisions_.empty() ? 0 : static_cast<int>(decisions_.size()) - 1;
  trace_.rows.push_back(TraceRow(step, thread, kind, std::move(text)));
}

void SchedulerCore::add_lock_row(int thread, TraceKind kind, const char* verb,
                                 const std::string& lock_name, LockMode mode) {
  if (!tracing_) return;
  add_row(thread, kind, lock_row(verb, lock_name, mode));
  TraceRow& row = trace_.rows.back();
  row.lock = lock_name;
  row.shared = mode == LockMode::kShared;
}

// Harness scope held. A lock seen for the first time in this run gets its
// name: the one racelab::Mutex gave it, the caller's, or, for the interposed
// primitives' generic names, the next number ("mutex 1").
SchedulerCore::LockState& SchedulerCore::lock_state(const void* lock,
                                                    const char* lock_name) {
  auto [it, inserted] = locks_.try_emplace(lock);
  if (inserted) {
    if (const char* given = racelab::lock_name(lock)) {
      it->second.name = given;
    } else if (lock_name == kUnnamedMutex || lock_name == kUnnamedSharedMutex) {
      it->second.name =
          std::string(lock_name) + " " + std::to_string(++unnamed_locks_);
    } else if (lock_name != nullptr) {
      it->second.name = lock_name;
    }
  }
  return it->second;
}

// Harness scope held. Returns the thread to run next (possibly `me`), or
// kToCaller when the run is over.
int SchedulerCore::decide(int me, const char* what, PointKind kind,
                          PointAccess at) {
  if (me >= 0) {
    LogicalThread& running = threads_[static_cast<std::size_t>(me)];
    if (running.wait == Wait::kNone) running.ready_at = clock_.elapsed();
    strategy_->step_finished(me, running.step);
    running.step.assign(1, at);
  }
  // A decision inside the step (which store a load read) failed.
  if (error_ != nullptr) return end_run();
  enabled_.clear();
  const bool all_finished = live_.empty();
  bool any_fresh = false;  // an enabled thread under the fairness bound
  bool any_free = false;
  for (const int t : live_) {
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.status == Status::kFree && thread.returned) {
      // Back from a block the scheduler does not model: readmitted.
      thread.status = Status::kRunnable;
      thread.ready_at = clock_.elapsed();
      thread.returned = false;
      store_unseen(&os_[static_cast<std::size_t>(t)]->free, 0);
      thread.spin = 0;
      thread.step.assign(1, PointAccess::unknown());
      add_row(t, TraceKind::kSwitch, "back at a scheduling point");
    }
    if (thread.status == Status::kFree) any_free = true;
    if (thread.status == Status::kRunnable) {
      enabled_.push_back(t);
      if (options_.spin_bound <= 0 || thread.spin < options_.spin_bound) {
        any_fresh = true;
      }
    }
  }
  if (order_deadlines()) {
    any_fresh = std::any_of(enabled_.begin(), enabled_.end(), [&](int t) {
      return options_.spin_bound <= 0 ||
             threads_[static_cast<std::size_t>(t)].spin < options_.spin_bound;
    });
  }
  if (enabled_.empty() && !any_free && !all_finished) {
    // Every thread waits: only a deadline can end a wait now, and the
    // earliest passes first, as in a real run that waited.
    const int expired = expire_far_deadline();
    if (expired >= 0) {
      enabled_.push_back(expired);
      note_run_progress();
    }
  }
  if (enabled_.empty() && any_free) {
    // Wait for a thread that runs free to come back (the first one to
    // reach a hook decides).
    if (me >= 0) threads_[static_cast<std::size_t>(me)].site = what;
    set_current(kNobody);
    return kNobody;
  }
  if (enabled_.empty()) {
    if (all_finished) {
      status_ = RunResult::Status::kCompleted;
    } else {
      status_ = RunResult::Status::kDeadlock;
      deadlock_report_ = describe_deadlock();
      deadlock_locks_ = describe_deadlock_locks();
    }
    return end_run();
  }
  if (options_.spin_bound > 0) {
    if (any_fresh) {
      // Fairness: a thread that gave way (it polled spin_bound times, or
      // yielded or slept) waits while a thread that has not can run.
      const std::size_t before = enabled_.size();
      std::erase_if(enabled_, [&](int t) {
        return threads_[static_cast<std::size_t>(t)].spin >=
               options_.spin_bound;
      });
      if (enabled_.size() != before) fairness_cut_ = true;
    } else {
      // Every thread that can run gave way: a new round, in which each may
      // poll spin_bound times again (a poller never holds the turn for good
      // while the thread it waits for, a sleeper or a spinner too, waits).
      for (LogicalThread& thread : threads_) thread.spin = 0;
    }
  }
  if (me >= 0 &&
      std::exchange(threads_[static_cast<std::size_t>(me)].yielded, false)) {
    // A yield or a sleep gives way to any other thread that can run, even
    // one that is spinning too: a poll that sleeps never starves the thread
    // it waits for.
    if (enabled_.size() > 1 && std::erase(enabled_, me) > 0) {
      fairness_cut_ = true;
    }
  }
  bool stalled = decisions_.size() - progress_at_ >=
                 static_cast<std::size_t>(options_.max_steps);
  if (stalled) {
    // The threads that can run spin without progress while time passes:
    // a deadline is reached before the step limit ends the run.
    const int expired = expire_earliest_deadline();
    if (expired >= 0) {
      enabled_.assign(1, expired);
      note_run_progress();
      stalled = false;
    }
  }
  // A long stretch without progress is a livelock only with evidence that
  // no thread can progress; without it the run goes on.
  stalled = stalled && (evidence_ = livelock_evidence(&livelock_report_)) !=
                           RunResult::LivelockEvidence::kNone;
  const std::int64_t length_limit =
      std::max<std::int64_t>(options_.max_total_steps, options_.max_steps);
  if (stalled || static_cast<std::int64_t>(decisions_.size()) >= length_limit) {
    status_ = stalled ? RunResult::Status::kStepLimit
                      : RunResult::Status::kLengthLimit;
    limit_ = stalled ? options_.max_steps : length_limit;
    if (!stalled) {
      evidence_ = RunResult::LivelockEvidence::kNone;
      livelock_report_.clear();
    }
    if (me >= 0) {
      add_row(me, TraceKind::kSwitch,
              stalled ? "stopped: step limit (" +
                            std::to_string(options_.max_steps) +
                            " steps without progress)"
                      : "stopped: length limit (" +
                            std::to_string(length_limit) + " steps)");
    }
    return end_run();
  }
  note_progress();
  int next;
  try {
    if (strategy_->wants_next_accesses()) {
      // A finished thread's entry is none from its end on (finished()).
      next_accesses_.resize(threads_.size(), PointAccess::none());
      for (const int t : live_) {
        const sched::Footprint& step =
            threads_[static_cast<std::size_t>(t)].step;
        next_accesses_[static_cast<std::size_t>(t)] =
            step.empty() ? PointAccess::none() : step.front();
      }
      strategy_->next_accesses(next_accesses_);
    }
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
  const bool me_enabled = me >= 0 && std::find(enabled_.begin(), enabled_.end(),
                                               me) != enabled_.end();
  if (me_enabled && next != me) {
    ++preemptions_;
    if (tracing_) {
      add_row(me, TraceKind::kSwitch,
              std::string("preempted at '") + what + "'");
    }
  }
  if (me >= 0) threads_[static_cast<std::size_t>(me)].site = what;
  if (me >= 0 && kind == PointKind::kInner) ++inner_points_;
  if (observer_ != nullptr) {
    const SwitchEvent event{me,
                            what,
                            next,
                            threads_[static_cast<std::size_t>(next)].site,
                            me_enabled && next != me,
                            me >= 0 && kind == PointKind::kOperationStart,
                            tracing_ ? &trace_ : nullptr,
                            -1};
    observer_(event, observer_context_);
  }
  decisions_.push_back(next);
  store_unseen(&decision_count_, static_cast<int>(decisions_.size()));
  LogicalThread& chosen = threads_[static_cast<std::size_t>(next)];
  decision_operations_.push_back(chosen.operation);
  chosen.started = true;
  note_store_access(chosen, chosen.step.front());
  set_current(next);
  return next;
}

RunResult::LivelockEvidence SchedulerCore::livelock_evidence(
    std::string* report) const {
  std::vector<int> runnable;
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    // A thread in the kernel may come back with progress.
    if (thread.status == Status::kFree)
      return RunResult::LivelockEvidence::kNone;
    if (thread.status != Status::kRunnable) continue;
    if (!thread.polled) return RunResult::LivelockEvidence::kNone;
    runnable.push_back(t);
  }
  if (runnable.empty()) return RunResult::LivelockEvidence::kNone;
  if (runnable.size() == 1) {
    *report = "only thread " + std::to_string(runnable.front()) +
              " can run (every other thread is blocked or finished), and it "
              "polls without progress: no thread can progress";
    return RunResult::LivelockEvidence::kNoThreadCanProgress;
  }
  std::string names;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    names += i == 0 ? "" : i + 1 == runnable.size() ? " and " : ", ";
    names += std::to_string(runnable[i]);
  }
  *report = "every thread that can run (threads " + names +
            ") polled without progress since the last progress, each given "
            "turns: the state they see recurs";
  return RunResult::LivelockEvidence::kStateRecurs;
}

int SchedulerCore::end_run() {
  set_current(-1);
  return kToCaller;
}

RunResult SchedulerCore::run(const std::vector<std::function<void()>>& threads,
                             const std::function<void()>* program,
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
  program_ = program;
  const std::size_t count = program != nullptr ? 1 : threads.size();

  threads_.assign(count, LogicalThread{});
  live_.resize(count);
  for (std::size_t i = 0; i < count; ++i) live_[i] = static_cast<int>(i);
  next_accesses_.clear();
  for (std::size_t i = 0; i < threads.size(); ++i) {
    threads_[i].body = &threads[i];
  }
  if (program != nullptr) threads_[0].body = program;
  locks_.clear();
  conds_.clear();
  objects_.clear();
  barriers_ = 0;
  semaphores_ = 0;
  futexes_ = 0;
  guards_ = 0;
  unnamed_locks_ = 0;
  wait_clock_ = 0;
  clock_.start(/*whole_program=*/program != nullptr);
  decisions_.clear();
  progress_at_ = 0;
  decisions_.reserve(last_decisions_);
  decision_operations_.clear();
  decision_operations_.reserve(last_decisions_);
  preemptions_ = 0;
  inner_points_ = 0;
  fairness_cut_ = false;
  status_ = RunResult::Status::kCompleted;
  limit_ = 0;
  evidence_ = RunResult::LivelockEvidence::kNone;
  livelock_report_.clear();
  deadlock_report_.clear();
  deadlock_locks_.clear();
  trace_ = Trace{static_cast<int>(count), {}};
  tracing_ = strategy.records_trace();
  if (tracing_) trace_.rows.reserve(last_rows_);
  thread_errors_.clear();
  error_ = nullptr;
  memory_ = options_.memory_model ? std::make_unique<MemoryModel>() : nullptr;
  blocks_.clear();
  unseen_code_noted_ = false;
  unseen_note_pending_ = false;
  unseen_uses_.clear();
  std::fill(unseen_clock_.begin(), unseen_clock_.end(), 0);
  store_unseen(&watching_, os_threads() && options_.block_polls > 0 &&
                                   options_.block_poll_ms > 0
                               ? 1
                               : 0);

  strategy.begin_schedule(program != nullptr ? kProgramThreadsAtBegin
                                             : static_cast<int>(count));
  strategy_ = &strategy;
  set_active(this);
  int first;
  const PinnedToOneCpu pinned(os_threads());
  run_cpu_ = pinned.cpu();
  if (main_here()) {
    os_.clear();
    by_handle_.clear();
    run_main_here();
    stop_watch();
    set_active_scheduling_hooks(nullptr);
    end_os_threads();
  } else if (os_threads()) {
    os_.clear();
    by_handle_.clear();
    // Spawn: pthread_create makes the caller's past happen before each thread.
    for (std::size_t i = 0; i < count; ++i) {
      start_os_thread(static_cast<int>(i), nullptr);
    }
    set_active_scheduling_hooks(hooks_);
    {
      HarnessScope harness;
      first = decide(kToCaller, "start");
    }
    start_watch();
    switch_away(kToCaller, first);
    stop_watch();
    set_active_scheduling_hooks(nullptr);
    end_os_threads();
  } else {
    if (fibers_.size() < count) fibers_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      if (fibers_[i] != nullptr) continue;
      fibers_[i] = std::make_unique<Fiber>(&SchedulerCore::fiber_main, this,
                                           options_.stack_size);
      fibers_[i]->set_name("racelab thread " + std::to_string(i));
    }
    caller_ = Fiber::for_current_thread();
    set_active_scheduling_hooks(hooks_);
    // Spawn: the caller's past happens before every thread, all edges made up
    // front so that no thread inherits another's history through the caller.
    for (std::size_t i = 0; i < count; ++i) caller_->release_to(*fibers_[i]);
    {
      HarnessScope harness;
      first = decide(kToCaller, "start");
    }
    switch_away(kToCaller, first);
    // The run is over. Join: every thread's past, finished or abandoned,
    // happens before what the caller does next.
    forget_abandoned_locks();
    for (std::size_t i = 0; i < count; ++i) caller_->acquire_from(*fibers_[i]);
    set_active_scheduling_hooks(nullptr);
    recycle_abandoned_fibers();
    caller_.reset();
  }
  set_active(nullptr);
  strategy_ = nullptr;
  program_ = nullptr;

  if (error_ != nullptr) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    std::rethrow_exception(error);
  }
  return take_result(strategy);
}

RunResult SchedulerCore::take_result(Strategy& strategy) {
  last_decisions_ = decisions_.size();
  if (tracing_) last_rows_ = trace_.rows.size();
  RunResult result;
  result.status = status_;
  result.limit = limit_;
  result.livelock_evidence = evidence_;
  result.livelock_report = std::move(livelock_report_);
  livelock_report_.clear();
  result.deadlock_report = std::move(deadlock_report_);
  result.deadlock_locks = std::move(deadlock_locks_);
  result.decisions = std::move(decisions_);
  result.decision_operations = std::move(decision_operations_);
  result.preemptions = preemptions_;
  result.inner_points = inner_points_;
  result.fairness_cut = fairness_cut_;
  result.memory_model = memory_ != nullptr;
  result.stale_reads = memory_ != nullptr ? memory_->stale_reads() : 0;
  result.trace = std::move(trace_);
  result.thread_errors = std::move(thread_errors_);
  take_unseen_note();
  result.unmodelled_blocks = std::move(blocks_);
  blocks_.clear();
  decisions_.clear();
  progress_at_ = 0;
  decision_operations_.clear();
  trace_ = Trace{};
  result.more_schedules = strategy.end_schedule();
  return result;
}

void SchedulerCore::finished(int me) {
  threads_[static_cast<std::size_t>(me)].status = Status::kFinished;
  leave_live(me);
  if (static_cast<std::size_t>(me) < next_accesses_.size()) {
    next_accesses_[static_cast<std::size_t>(me)] = PointAccess::none();
  }
  threads_[static_cast<std::size_t>(me)].step.push_back(
      {ObjectKind::kThread, thread_object(me), AccessKind::kWrite});
  add_row(me, TraceKind::kSwitch, "finished");
  if (memory_) memory_->release_on(me, thread_object(me));
  note_run_progress();
  // The robust mutexes it holds are the kernel's to release: their waiters
  // retry (settle_robust_lock), and the lock's next taker sees EOWNERDEAD.
  for (const auto& [lock, state] : locks_) {
    if (!state.robust) continue;
    for (const Holder& holder : state.holders) {
      if (holder.thread != me) continue;
      threads_[static_cast<std::size_t>(me)].step.push_back(
          lock_access(lock, LockMode::kExclusive));
      wake_waiters_of(lock);
      break;
    }
  }
  for (const int t : live_) {
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.status != Status::kFinished && thread.wait == Wait::kJoin &&
        thread.join_target == me) {
      thread.status = Status::kRunnable;
      thread.wait = Wait::kNone;
    }
  }
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
#ifdef __GLIBCXX__
  } catch (const abi::__forced_unwind&) {
    throw;  // pthread_exit or a cancellation: the thread ends
#endif
  } catch (const std::exception& e) {
    error = std::string("threw: ") + e.what();
  } catch (...) {
    error = "threw an exception that is not a std::exception";
  }
  Turn turn(this, me);
  HarnessScope harness;
  thread_errors_.push_back("thread " + std::to_string(me) + " " + error);
  add_row(me, TraceKind::kException, error);
}

void SchedulerCore::yield_point(const char* what, PointEffect effect,
                                PointAccess access, PointKind kind) {
  const int me = enter_hook("yield_point");
  Turn turn(this, me);
  int to;
  bool catches_up = false;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    const bool gives_way =
        effect == PointEffect::kYield || effect == PointEffect::kSleep;
    if (gives_way) {
      // A poll that gives way at once; a sleep lets time pass too.
      if (effect == PointEffect::kSleep) note_time_passed();
      note_poll(thread);
      thread.spin = std::max(thread.spin, options_.spin_bound);
      thread.yielded = true;
    } else if (effect == PointEffect::kNoProgress ||
               retakes_own_lock(me, access)) {
      note_poll(thread);
    } else {
      note_run_progress();
    }
    // The memory-model mode: a thread back from a yield, or from waiting
    // out the fairness bound, sees every latest store.
    catches_up = memory_ != nullptr &&
                 (gives_way || (options_.spin_bound > 0 &&
                                thread.spin >= options_.spin_bound));
    to = decide(me, what, kind, access);
  }
  switch_away(me, to, &turn);
  if (catches_up) {
    Turn again(this, me);
    HarnessScope harness;
    memory_->catch_up(me);
  }
}

void SchedulerCore::touched(PointAccess access) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  note_store_access(thread, access);
  std::vector<PointAccess>& step = thread.step;
  // Without an allocation this code does nothing TSan sees (its accesses are
  // not instrumented), so only a growing step pays for a HarnessScope.
  if (step.size() < step.capacity()) {
    step.push_back(access);
    return;
  }
  HarnessScope harness;
  step.push_back(access);
}

void SchedulerCore::progressed() {
  const int me = enter_hook("progressed");
  Turn turn(this, me);
  HarnessScope harness;
  note_run_progress();
}

void SchedulerCore::note(std::string&& text) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  HarnessScope harness;
  add_row(me, TraceKind::kOperation, std::move(text));
}

void SchedulerCore::begin_operation(int index) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  HarnessScope harness;
  threads_[static_cast<std::size_t>(me)].operation = index;
}

}  // namespace racelab::sched::internal
