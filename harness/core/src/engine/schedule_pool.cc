// The workers of a numbered search; see schedule_pool.h.
#include "racelab/schedule_pool.h"

#include <utility>

namespace racelab::controlled_internal {

SchedulePool::SchedulePool(
    std::vector<WorkerRunner> runners,
    std::function<std::unique_ptr<sched::Strategy>()> make_strategy,
    std::function<std::uint64_t(std::uint64_t)> program_seed,
    NumberedSchedules schedules, std::uint64_t from, int calibration,
    std::function<bool()> stop_requested)
    : make_strategy_(std::move(make_strategy)),
      program_seed_(std::move(program_seed)),
      schedules_(schedules),
      calibration_(calibration),
      stop_requested_(std::move(stop_requested)),
      ahead_(2 * runners.size()),
      next_(from),
      waiting_(from) {
  threads_.reserve(runners.size());
  for (WorkerRunner& runner : runners) {
    threads_.emplace_back([this, run = std::move(runner)] { work(run); });
  }
}

SchedulePool::~SchedulePool() {
  {
    std::lock_guard<std::mutex> hold(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void SchedulePool::work(const WorkerRunner& run) {
  std::unique_ptr<sched::Strategy> strategy;
  for (;;) {
    std::uint64_t position;
    {
      std::unique_lock<std::mutex> hold(mu_);
      changed_.wait(hold, [&] {
        return stopping_ || !schedules_.contains_position(next_) ||
               next_ < waiting_ + ahead_;
      });
      if (stopping_ || !schedules_.contains_position(next_)) return;
      position = next_++;
    }
    Done done;  // neither outcome nor error: not started (a stop request)
    if (!stop_requested_ || !stop_requested_()) {
      try {
        if (strategy == nullptr) strategy = make_strategy_();
        const std::uint64_t index = schedules_.at(position);
        strategy->number_schedule(index, calibration_);
        done.outcome = run(program_seed_(index), *strategy);
      } catch (...) {
        done.error = std::current_exception();
        strategy.reset();  // a strategy left mid-schedule is not reused
      }
    }
    {
      std::lock_guard<std::mutex> hold(mu_);
      done_.emplace(position, std::move(done));
    }
    changed_.notify_all();
  }
}

std::optional<RunObservation> SchedulePool::take(std::uint64_t position) {
  std::unique_lock<std::mutex> hold(mu_);
  waiting_ = position;
  changed_.notify_all();
  changed_.wait(hold, [&] { return done_.contains(position); });
  Done done = std::move(done_.at(position));
  done_.erase(position);
  hold.unlock();
  if (done.error) std::rethrow_exception(done.error);
  return std::move(done.outcome);
}

}  // namespace racelab::controlled_internal
