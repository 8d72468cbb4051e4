// The controlled scheduler's memory-model mode: the interposed atomics'
// hooks (SchedulingHooks::atomic_loaded and the rest) on the run's
// MemoryModel, and the decision of which store a load reads.
#include "scheduler_core.h"

namespace racelab::sched::internal {

int SchedulerCore::decide_value(int me, int count) {
  int index = count - 1;
  try {
    index = strategy_->pick_value(count);
  } catch (...) {
    if (error_ == nullptr) error_ = std::current_exception();
    return count - 1;
  }
  if (index < 0 || index >= count) {
    if (error_ == nullptr) {
      error_ = std::make_exception_ptr(ScheduleError(
          "strategy '" + std::string(strategy_->name()) + "' picked store " +
          std::to_string(index) + " of " + std::to_string(count) + " at step " +
          std::to_string(decisions_.size())));
    }
    return count - 1;
  }
  decisions_.push_back(index);
  store_unseen(&decision_count_, static_cast<int>(decisions_.size()));
  decision_operations_.push_back(
      threads_[static_cast<std::size_t>(me)].operation);
  return index;
}

void SchedulerCore::announce_value(int me, int index) {
  if (observer_ == nullptr) return;
  const char* site = threads_[static_cast<std::size_t>(me)].site;
  SwitchEvent event{
      me, site, me, site, false, false, tracing_ ? &trace_ : nullptr, index};
  observer_(event, observer_context_);
}

// A seq_cst store or read-modify-write: its step writes the model's seq_cst
// order (for strategies that reason about which steps commute).
void SchedulerCore::touch_seq_cst_order(int me) {
  threads_[static_cast<std::size_t>(me)].step.push_back(seq_cst_order_access());
}

unsigned long long SchedulerCore::atomic_loaded(const volatile void* address,
                                                int size,
                                                unsigned long long latest,
                                                MemoryOrder order) {
  const int me = enter_hook("atomic_loaded");
  Turn turn(this, me);
  HarnessScope harness;
  MemoryModel::Location& location = memory_->location(address, size, latest);
  const int count = memory_->candidates(me, location, order);
  const std::size_t decided_before = decisions_.size();
  const int index = count > 1 ? decide_value(me, count) : 0;
  const bool decided = decisions_.size() > decided_before;
  std::string how;
  const std::uint64_t value =
      memory_->read(me, location, index, order, tracing_ ? &how : nullptr);
  if (!how.empty()) add_row(me, TraceKind::kOperation, "atomic load " + how);
  // Observers hear of the decision with its row in the trace: a whole
  // program streams the trace at each decision, and one that fails right
  // after a stale read (an assertion on the value read) must still show it.
  if (decided) announce_value(me, index);
  return value;
}

void SchedulerCore::atomic_stored(const volatile void* address, int size,
                                  unsigned long long previous,
                                  unsigned long long value, MemoryOrder order) {
  const int me = enter_hook("atomic_stored");
  Turn turn(this, me);
  HarnessScope harness;
  MemoryModel::Location& location = memory_->location(address, size, previous);
  memory_->store(me, location, value, order);
  if (order == MemoryOrder::kSeqCst) touch_seq_cst_order(me);
}

void SchedulerCore::atomic_updated(const volatile void* address, int size,
                                   unsigned long long old, bool wrote,
                                   unsigned long long value,
                                   MemoryOrder order) {
  const int me = enter_hook("atomic_updated");
  Turn turn(this, me);
  HarnessScope harness;
  MemoryModel::Location& location = memory_->location(address, size, old);
  memory_->update(me, location, wrote, value, order);
  if (wrote && order == MemoryOrder::kSeqCst) touch_seq_cst_order(me);
}

void SchedulerCore::atomic_fence(MemoryOrder order) {
  const int me = enter_hook("atomic_fence");
  Turn turn(this, me);
  HarnessScope harness;
  memory_->fence(me, order);
}

void SchedulerCore::model_acquire(int me, const void* object) {
  if (memory_ == nullptr) return;
  Turn turn(this, me);
  HarnessScope harness;
  memory_->acquire_on(me, object);
}

}  // namespace racelab::sched::internal
