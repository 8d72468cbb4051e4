// ControlledScheduler, the scheduler's public face: it checks its options and
// forwards every hook to its SchedulerCore (scheduler_core.h); the names of
// substrates and run statuses; pinning a process to one CPU.
#include "scheduler_core.h"

namespace racelab::sched {

HarnessScope::HarnessScope() {
  interpose_internal::enter_unwatched_harness();
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_begin();
#endif
}

HarnessScope::~HarnessScope() {
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_end();
#endif
  interpose_internal::leave_unwatched_harness();
}

std::string_view to_string(Substrate substrate) {
  return substrate == Substrate::kOsThreads ? "threads" : "fibers";
}

std::optional<Substrate> parse_substrate(std::string_view name) {
  if (name == "fibers") return Substrate::kFibers;
  if (name == "threads") return Substrate::kOsThreads;
  return std::nullopt;
}

std::string_view to_string(RunResult::Status status) {
  switch (status) {
    case RunResult::Status::kCompleted:
      return "completed";
    case RunResult::Status::kDeadlock:
      return "deadlock";
    case RunResult::Status::kStepLimit:
      return "step limit";
    case RunResult::Status::kLengthLimit:
      return "length limit";
  }
  return "unknown";
}

std::string limit_summary(RunResult::Status status, std::int64_t limit,
                          std::string_view evidence) {
  if (status == RunResult::Status::kLengthLimit) {
    return "cut at " + std::to_string(limit) +
           " decisions while making progress (racelab's length limit, not a "
           "livelock): what the program does past that point was not "
           "explored";
  }
  std::string text = "livelock: no progress in " + std::to_string(limit) +
                     " scheduling decisions in a row (no store, lock, unlock, "
                     "notify, post, join, thread end or sleep)";
  if (evidence.empty()) return text;
  return text + ", and " + std::string(evidence);
}

bool pin_process_to_one_cpu() {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return false;
  if (CPU_COUNT(&mask) == 1) return true;
  return internal::PinnedToOneCpu::pin_calling_thread(sched_getcpu());
}

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
  return core_->run(threads, nullptr, strategy);
}

RunResult ControlledScheduler::run_program(const std::function<void()>& main,
                                           Strategy& strategy) {
  if (!core_->os_threads()) {
    throw std::logic_error(
        "ControlledScheduler::run_program needs Substrate::kOsThreads");
  }
  return core_->run({}, &main, strategy);
}

RunResult ControlledScheduler::run_program_here(
    const std::function<void()>& main, Strategy& strategy, StrandedEnd stranded,
    void* context) {
  if (!core_->os_threads() || stranded == nullptr) {
    throw std::logic_error(
        "ControlledScheduler::run_program_here needs Substrate::kOsThreads "
        "and a stranded end");
  }
  core_->set_stranded_end(stranded, context);
  RunResult result = core_->run({}, &main, strategy);
  core_->set_stranded_end(nullptr, nullptr);
  return result;
}

void ControlledScheduler::set_switch_observer(SwitchObserver observer,
                                              void* context) {
  if (internal::t_active == core_.get()) {
    throw std::logic_error(
        "ControlledScheduler::set_switch_observer called during a run");
  }
  core_->set_switch_observer(observer, context);
}

void ControlledScheduler::set_block_observer(BlockObserver observer,
                                             void* context) {
  if (internal::t_active == core_.get()) {
    throw std::logic_error(
        "ControlledScheduler::set_block_observer called during a run");
  }
  core_->set_block_observer(observer, context);
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

bool ControlledScheduler::tracing() {
  internal::SchedulerCore* core = internal::t_active;
  return core != nullptr && core->tracing();
}

std::uint64_t ControlledScheduler::last_store_step() {
  const int me = current_thread();
  return me < 0 ? 0 : internal::t_active->last_store_step(me);
}

int ControlledScheduler::current_thread() {
  internal::SchedulerCore* core = internal::t_active;
  if (core == nullptr) return -1;
  return core->os_threads() ? internal::t_me : core->current();
}

// Called by the interposer on every OS thread, also while this scheduler is
// being destroyed on another: a thread reads no more than its own t_active
// until it is known to be one of this run's threads.
bool ControlledScheduler::owns_calling_thread() const {
  internal::SchedulerCore* core = internal::t_active;
  return core != nullptr && core->owns_calling_thread() && core == core_.get();
}

void ControlledScheduler::yield_point(const char* what, PointEffect effect) {
  core_->yield_point(what, effect, PointAccess::unknown(), PointKind::kInner);
}

void ControlledScheduler::access_point(const char* what, PointEffect effect,
                                       PointAccess access, PointKind kind) {
  core_->yield_point(what, effect, access, kind);
}

void ControlledScheduler::touched(PointAccess access) {
  core_->touched(access);
}

void ControlledScheduler::touch(PointAccess access) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->touched(access);
  }
}

void ControlledScheduler::progressed() { core_->progressed(); }
bool ControlledScheduler::models_memory() const {
  return core_->models_memory();
}
unsigned long long ControlledScheduler::atomic_loaded(
    const volatile void* address, int size, unsigned long long latest,
    MemoryOrder order) {
  return core_->atomic_loaded(address, size, latest, order);
}
void ControlledScheduler::atomic_stored(const volatile void* address, int size,
                                        unsigned long long previous,
                                        unsigned long long value,
                                        MemoryOrder order) {
  core_->atomic_stored(address, size, previous, value, order);
}
void ControlledScheduler::atomic_updated(const volatile void* address, int size,
                                         unsigned long long old, bool wrote,
                                         unsigned long long value,
                                         MemoryOrder order) {
  core_->atomic_updated(address, size, old, wrote, value, order);
}
void ControlledScheduler::atomic_fence(MemoryOrder order) {
  core_->atomic_fence(order);
}

bool ControlledScheduler::block_on(const void* lock, const char* lock_name,
                                   LockMode mode, Timeout timeout) {
  return core_->block_on(lock, lock_name, mode, timeout);
}

void ControlledScheduler::settle_robust_lock(const void* lock) {
  core_->settle_robust_lock(lock);
}

void ControlledScheduler::sleep_until(Timeout end) { core_->sleep_until(end); }
bool ControlledScheduler::read_clock(clockid_t clock, timespec* now) {
  return core_->read_clock(clock, now);
}
void ControlledScheduler::time_passes_until(Timeout end) {
  core_->time_passes_until(end);
}

bool ControlledScheduler::cond_wait(const void* cond, Timeout timeout) {
  return core_->cond_wait(cond, timeout);
}

void ControlledScheduler::cond_notify(const void* cond, bool all) {
  core_->cond_notify(cond, all);
}

bool ControlledScheduler::spawn(pthread_t* thread, const pthread_attr_t* attr,
                                void* (*start)(void*), void* arg, int* result) {
  return core_->spawn(thread, attr, start, arg, result);
}

bool ControlledScheduler::object_wait(PointAccess object, Timeout timeout) {
  return core_->object_wait(object, timeout);
}

int ControlledScheduler::wake_object(const void* object, int at_most) {
  return core_->wake_object(object, at_most);
}

int ControlledScheduler::object_waiters(const void* object) const {
  return core_->object_waiters(object);
}

bool ControlledScheduler::join(pthread_t thread, JoinWait wait, bool* finished,
                               Timeout timeout) {
  return core_->join(thread, wait, finished, timeout);
}

void ControlledScheduler::detach(pthread_t thread) { core_->detach(thread); }

void ControlledScheduler::cancel(pthread_t thread) { core_->cancel(thread); }

bool ControlledScheduler::another_thread_can_run() const {
  return core_->another_thread_can_run();
}

void ControlledScheduler::ran_unseen_code(const UnseenCall& call) {
  core_->ran_unseen_code(call);
}

void ControlledScheduler::acquired(const void* lock, const char* lock_name,
                                   LockMode mode) {
  core_->acquired(lock, lock_name, mode);
}

bool ControlledScheduler::holds_exclusively(const void* lock) const {
  return core_->holds_exclusively(lock);
}

bool ControlledScheduler::held_in_run(const void* lock) const {
  return core_->held_in_run(lock);
}

void ControlledScheduler::released(const void* lock, LockMode mode) {
  core_->released(lock, mode);
}

}  // namespace racelab::sched
