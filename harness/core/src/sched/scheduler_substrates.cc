// The two substrates of a controlled run: fibers on the caller's thread, and
// OS threads that take turns with a baton (their start, their end, the
// threads a run abandons, the fibers it recycles).
#include "racelab/raw_syscall.h"
#include "scheduler_core.h"

namespace racelab::sched::internal {

void wait_until_gone(long tid) {
  const long pid = getpid();
  for (int i = 0; i < 50000 && raw_syscall(SYS_tgkill, pid, tid, 0) == 0; ++i) {
    const timespec pause{0, 100000};
    raw_syscall(SYS_nanosleep, &pause, nullptr);
  }
}

namespace {

// The key whose destructor ends an OS thread's logical thread.
pthread_key_t finish_key() {
  NotSchedulingPoints harness;  // the guard of the static is an atomic
  static const pthread_key_t key = [] {
    pthread_key_t made;
    if (pthread_key_create(&made, &SchedulerCore::os_thread_finished) != 0) {
      die("pthread_key_create failed");
    }
    return made;
  }();
  return key;
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

#ifdef RACELAB_SCHED_TSAN
struct HeldLock {
  const void* lock;
  LockMode mode;
};
// Tells TSan that the calling context no longer holds the lock.
RACELAB_NO_SANITIZE_THREAD void release_in_tsan(void* arg) {
  const auto* held = static_cast<const HeldLock*>(arg);
  void* address = const_cast<void*>(held->lock);
  const unsigned flags =
      held->mode == LockMode::kShared ? __tsan_mutex_read_lock : 0;
  __tsan_mutex_pre_unlock(address, flags);
  __tsan_mutex_post_unlock(address, flags);
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

Baton& SchedulerCore::baton_of(int thread) {
  // A main_here() run has no caller waiting: handing the turn back to it is
  // the end of the run, there and then.
  if (thread == kToCaller && main_here()) end_stranded();
  return thread >= 0 ? os_[static_cast<std::size_t>(thread)]->baton
                     : caller_baton_;
}

void SchedulerCore::switch_away(int me, int to, Turn* turn) {
  if (!os_threads()) {
    if (turn != nullptr) turn->release();
    Fiber* from = fiber_of(me);
    Fiber* next = fiber_of(to);
    if (from != next) from->switch_to(*next);
    return;
  }
  if (to == me) {
    if (turn != nullptr) turn->release();
    return;
  }
  Baton* next;
  Baton* mine;
  {
    // os_ grows when a thread spawns another: read it as bookkeeping.
    HarnessScope harness;
    next = to == kNobody ? nullptr : &baton_of(to);
    mine = &baton_of(me);
  }
  if (turn != nullptr) turn->release();
  if (next != nullptr) next->post();
  mine->wait();
  bool abandoned;
  {
    HarnessScope harness;
    abandoned = me >= 0 && os_[static_cast<std::size_t>(me)]->abandoned;
  }
  if (abandoned) abandon_self(me);
}

void SchedulerCore::start_os_thread(int id, const pthread_attr_t* attr) {
  auto os = std::make_unique<OsThread>();
  os->core = this;
  os->id = id;
  OsThread* raw = os.get();
  {
    HarnessScope harness;
    os_.push_back(std::move(os));
  }
  const int result = interpose_internal::real_pthread_create(
      &raw->handle, attr, &SchedulerCore::os_thread_main, raw);
  if (result != 0) {
    throw std::runtime_error(
        "racelab: pthread_create failed for logical "
        "thread " +
        std::to_string(id) + ": " + std::strerror(result));
  }
  int state = PTHREAD_CREATE_JOINABLE;
  if (attr != nullptr) pthread_attr_getdetachstate(attr, &state);
  HarnessScope harness;
  raw->created = true;
  raw->detached = state == PTHREAD_CREATE_DETACHED;
  by_handle_[raw->handle] = id;
}

void* SchedulerCore::os_thread_main(void* os_thread) {
  auto* os = static_cast<OsThread*>(os_thread);
  SchedulerCore* core = os->core;
  set_active(core);
  t_me = os->id;
  t_free = &os->free;
  t_generation = load_unseen(&core->generation_);
#ifdef RACELAB_SCHED_TSAN
  const std::string name = "racelab thread " + std::to_string(os->id);
  AnnotateThreadName(__FILE__, __LINE__, name.c_str());
#endif
  if (core->run_cpu_ >= 0) PinnedToOneCpu::pin_calling_thread(core->run_cpu_);
  {
    HarnessScope harness;
    os->tid = raw_syscall(SYS_gettid);
  }
  os->baton.wait();
  bool abandoned;
  {
    HarnessScope harness;
    abandoned = os->abandoned;
  }
  if (abandoned) {  // the run ended before its first turn
    set_active(nullptr);
    t_me = -1;
    t_free = nullptr;
    return nullptr;
  }
  pthread_setspecific(finish_key(), os);
  void* (*start)(void*);
  void* arg;
  {
    Turn turn(core, os->id);
    HarnessScope harness;
    const LogicalThread& me = core->threads_[static_cast<std::size_t>(os->id)];
    start = me.start;
    arg = me.arg;
  }
  if (start != nullptr) return start(arg);
  core->run_body(os->id);
  if (os->id == 0 && core->program_ != nullptr) core->exit_program(0);
  return nullptr;
}

void SchedulerCore::os_thread_finished(void* os_thread) {
  auto* os = static_cast<OsThread*>(os_thread);
  os->core->finish_os_thread(os->id);
}

void SchedulerCore::finish_os_thread(int me) {
  Turn turn(this, me);
  int to;
  Baton* next;
  {
    HarnessScope harness;
    finished(me);
    to = decide(me, "finish", PointKind::kThreadEnd, PointAccess::none());
    // A finished thread is not enabled: `to` is another thread, the caller
    // or kNobody (the threads that could run run free).
    next = to == kNobody ? nullptr : &baton_of(to);
  }
  set_active(nullptr);
  t_me = -1;
  t_free = nullptr;
  turn.release();
  if (next != nullptr) next->post();
}

void SchedulerCore::exit_program(int me) {
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    note_run_progress();
    to = decide(me, "exit", PointKind::kThreadEnd);
  }
  switch_away(me, to, &turn);
  {
    Turn again(this, me);
    HarnessScope harness;
    threads_[static_cast<std::size_t>(me)].status = Status::kFinished;
    leave_live(me);
    add_row(me, TraceKind::kSwitch, "exited");
    end_run();
  }
  pthread_setspecific(finish_key(), nullptr);
  set_active(nullptr);
  t_me = -1;
  t_free = nullptr;
  if (!main_here()) caller_baton_.post();
}

namespace {

// A fork by a logical thread of a run_program_here run: the watcher, a
// thread of racelab's, is not there at the fork (ThreadSanitizer lets the
// child start threads only after a single-threaded fork), and the child
// leaves the run: it is a process of its own, run uncontrolled.
void pause_watch_before_fork() {
  if (t_active != nullptr) t_active->pause_watch(true);
}
void resume_watch_after_fork() {
  if (t_active != nullptr) t_active->pause_watch(false);
}
void leave_run_in_child() {
  if (t_active == nullptr) return;
  set_active_scheduling_hooks(nullptr);
  set_active(nullptr);
  t_me = -1;
  t_free = nullptr;
}

}  // namespace

void SchedulerCore::pause_watch(bool pause) {
  if (!main_here()) return;
  HarnessScope harness;
  if (pause) {
    stop_watch();
  } else {
    start_watch();
  }
}

void SchedulerCore::run_main_here() {
  static const bool fork_handlers = [] {
    pthread_atfork(&pause_watch_before_fork, &resume_watch_after_fork,
                   &leave_run_in_child);
    return true;
  }();
  (void)fork_handlers;
  {
    auto os = std::make_unique<OsThread>();
    os->core = this;
    os->id = 0;
    os->handle = pthread_self();
    os->tid = raw_syscall(SYS_gettid);
    // Not `created`: the run neither joins nor parks the caller's thread.
    HarnessScope harness;
    os_.push_back(std::move(os));
  }
  t_me = 0;
  t_free = &os_.front()->free;
  t_generation = load_unseen(&generation_);
  set_active_scheduling_hooks(hooks_);
  int first;
  {
    HarnessScope harness;
    first = decide(kToCaller, "start");
  }
  start_watch();
  if (first != 0) {
    Turn turn(this, 0);
    end_stranded();
  }
  run_body(0);
  exit_program(0);
}

void SchedulerCore::end_stranded() {
  // A thread back from the kernel parks: the run is over.
  store_unseen(&generation_, load_unseen(&generation_) + 1);
  const ControlledScheduler::StrandedEnd end = stranded_;
  void* const context = stranded_context_;
  std::exception_ptr error;
  RunResult result;
  {
    HarnessScope harness;
    error = std::exchange(error_, nullptr);
    result = take_result(*strategy_);
  }
  set_active_scheduling_hooks(nullptr);
  set_active(nullptr);
  t_me = -1;
  t_free = nullptr;
  end(result, error, context);
  die("a stranded run's end returned");
}

void SchedulerCore::abandon_self([[maybe_unused]] int me) {
  {
    HarnessScope harness;
#ifdef RACELAB_SCHED_TSAN
    // TSan must not keep the locks it holds locked by a thread that never
    // runs again (a mutex built later at the same address would be reported
    // as a double lock).
    for (const auto& [lock, state] : locks_) {
      for (const Holder& holder : state.holders) {
        if (holder.thread != me) continue;
        HeldLock held{lock, holder.mode};
        release_in_tsan(&held);
      }
    }
    // Join: what it did happens before what the caller does next.
    __tsan_release(os_[static_cast<std::size_t>(me)].get());
#endif
  }
  pthread_setspecific(finish_key(), nullptr);
  set_active(nullptr);
  t_me = -1;
  t_free = nullptr;
  abandon_done_.post();
  park_forever();
}

// The caller, once the run is over: join the threads that finished, release
// the ones that never started, park the ones stopped mid-way (their frames
// are never resumed nor unwound, as with fibers). When a whole program ran to
// its end, a thread it created and neither joined nor detached is not
// joined: it ends as it does without racelab, finished and unjoined, and
// ThreadSanitizer reports it as a thread leak when the program exits.
void SchedulerCore::end_os_threads() {
  enum class End { kNone, kJoin, kRelease, kPark, kLeave };
  struct Plan {
    OsThread* os;
    End end;
    bool join;
  };
  std::vector<Plan> plans;
  {
    // Written by the logical threads with no edge to the caller. A thread
    // that runs free and comes back from the kernel after this parks (the
    // run's number changes here).
    const bool watching = load_unseen(&watching_) != 0;
    if (watching) {
      while (!try_lock_unseen(&turn_)) yield_cpu();
    }
    store_unseen(&generation_, load_unseen(&generation_) + 1);
    HarnessScope harness;
    for (auto& os : os_) {
      if (!os->created) continue;
      const LogicalThread& thread = threads_[static_cast<std::size_t>(os->id)];
      const bool joinable = !os->joined && !os->detached;
      if (thread.status == Status::kFree && !thread.returned) {
        // Still in the kernel: neither waited for nor woken; it parks if
        // it ever comes back (a process exit ends it).
        os->abandoned = true;
        continue;
      }
      if (thread.status == Status::kFinished) {
        // Only when the program ran to its end: a deadlock or a step limit
        // ends a run that would go on (or hang) without racelab.
        const bool leaked = program_ != nullptr && thread.start != nullptr &&
                            joinable &&
                            status_ == RunResult::Status::kCompleted;
        plans.push_back(
            {os.get(), leaked ? End::kLeave : End::kJoin, joinable && !leaked});
      } else if (!thread.started) {
        plans.push_back({os.get(), End::kRelease, joinable});
      } else {
        plans.push_back({os.get(), End::kPark, !os->detached});
      }
      if (thread.status != Status::kFinished) os->abandoned = true;
    }
    if (watching) unlock_unseen(&turn_);
  }
  for (const Plan& plan : plans) {
    if (plan.end == End::kLeave) {
      long tid;
      {
        HarnessScope harness;
        tid = plan.os->tid;
      }
      wait_until_gone(tid);
      continue;
    }
    if (plan.end != End::kJoin) plan.os->baton.post();
    if (plan.end == End::kPark) {
      abandon_done_.wait();
#ifdef RACELAB_SCHED_TSAN
      __tsan_acquire(plan.os);
#endif
      if (plan.join) pthread_detach(plan.os->handle);
    } else if (plan.join) {
      interpose_internal::real_pthread_join(plan.os->handle, nullptr);
    }
  }
}

// An abandoned fiber never releases its locks. The real primitives stay
// locked (the store is in whatever state the deadlock left), but TSan must not
// keep them locked by a context that is about to be recycled: a new mutex built
// later at the same stack address would be reported as a "double lock", a
// locked rwlock's destruction as "destroy of a locked mutex". The hooks pass
// the primitive itself, so the lock's address is the address TSan knows.
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
  int to;
  {
    HarnessScope harness;
    finished(me);
    to = decide(me, "finish", PointKind::kThreadEnd, PointAccess::none());
  }
  // A finished thread is not enabled, so `to` is another fiber or the caller.
  // This fiber is resumed only when a later run gives it a new thread.
  fiber_of(me)->switch_to(*fiber_of(to));
}

}  // namespace racelab::sched::internal
