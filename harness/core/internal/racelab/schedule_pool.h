// Runs the numbered schedules of one search (pct, random) on several workers
// at once, ahead of the search's loop, and hands their observations to the
// loop in the order it takes them. The loop itself stays the one of a single
// worker, so a search's result (the first failing schedule, the counts, the
// schedule saved) is the same for any number of workers.
#ifndef RACELAB_SCHEDULE_POOL_H_
#define RACELAB_SCHEDULE_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "racelab/internal/case.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/sched/strategy.h"

namespace racelab::controlled_internal {

// The schedules a search (or its shard) runs: schedule first + k * step for
// k = 0, 1, ... below `end`.
struct NumberedSchedules {
  std::uint64_t first = 0;
  std::uint64_t step = 1;
  std::uint64_t end = 0;
  std::uint64_t at(std::uint64_t position) const {
    return first + position * step;
  }
  bool contains_position(std::uint64_t position) const {
    return at(position) < end;
  }
};

class SchedulePool {
 public:
  // One worker per runner. Each makes its own strategy with `make_strategy`
  // and numbers it (Strategy::number_schedule) with the schedule's index and
  // `calibration`; `program_seed` gives the program of a schedule index.
  // Positions from `from` on are run; at most `ahead` past the one the loop
  // waits for.
  SchedulePool(std::vector<WorkerRunner> runners,
               std::function<std::unique_ptr<sched::Strategy>()> make_strategy,
               std::function<std::uint64_t(std::uint64_t)> program_seed,
               NumberedSchedules schedules, std::uint64_t from, int calibration,
               std::function<bool()> stop_requested);
  // Starts no schedule any more and waits for those running.
  ~SchedulePool();
  SchedulePool(const SchedulePool&) = delete;
  SchedulePool& operator=(const SchedulePool&) = delete;

  // The observation of the schedule at `position`, waiting for it; rethrows
  // what its run threw; nullopt when a stop request kept it from starting.
  // Positions are taken in ascending order.
  std::optional<RunObservation> take(std::uint64_t position);

 private:
  void work(const WorkerRunner& run);

  std::function<std::unique_ptr<sched::Strategy>()> make_strategy_;
  std::function<std::uint64_t(std::uint64_t)> program_seed_;
  NumberedSchedules schedules_;
  int calibration_;
  std::function<bool()> stop_requested_;
  std::uint64_t ahead_;

  std::mutex mu_;
  std::condition_variable changed_;
  std::uint64_t next_ = 0;     // the next position a worker starts
  std::uint64_t waiting_ = 0;  // the position the loop takes next
  bool stopping_ = false;
  struct Done {
    std::optional<RunObservation> outcome;
    std::exception_ptr error;
  };
  std::map<std::uint64_t, Done> done_;
  std::vector<std::thread> threads_;
};

}  // namespace racelab::controlled_internal

#endif  // RACELAB_SCHEDULE_POOL_H_
