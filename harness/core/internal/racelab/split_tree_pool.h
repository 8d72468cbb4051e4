// Runs one dfs search split at its tree's first branching decision: one
// search rooted at each choice there (sched::DfsStrategy::root_at), on
// several workers at once, and hands their schedules to the search's loop in
// one fixed order: the first schedule (the one that found the branching
// decision), then every schedule of the first choice's search, then the
// second's, and so on. The loop stays the one of a single worker, so the
// result is the same for any number of workers; the whole is verified only
// when every rooted search ran to its end.
#ifndef RACELAB_SPLIT_TREE_POOL_H_
#define RACELAB_SPLIT_TREE_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "racelab/internal/case.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/sched/strategy.h"

namespace racelab::controlled_internal {

class SplitTreePool {
 public:
  // One worker per runner; `make_strategy` makes a dfs strategy with the
  // search's bound. Each rooted search runs at most `per_root` schedules.
  SplitTreePool(
      std::vector<WorkerRunner> runners,
      std::function<std::unique_ptr<sched::DfsStrategy>()> make_strategy,
      std::uint64_t program_seed, std::vector<std::vector<int>> roots,
      int per_root, std::function<bool()> stop_requested);
  // Starts no schedule any more and waits for those running.
  ~SplitTreePool();
  SplitTreePool(const SplitTreePool&) = delete;
  SplitTreePool& operator=(const SplitTreePool&) = delete;

  // The schedule at `position` of the order above, counted from the first
  // rooted search's first schedule (0), waiting for it; its more_schedules
  // says whether any schedule of any rooted search comes after it. nullopt:
  // there is none at `position` (the searches ended, a stop request).
  // Rethrows what a run threw. Positions are taken in ascending order.
  std::optional<RunObservation> take(std::uint64_t position);

 private:
  struct Root {
    std::vector<RunObservation> outcomes;
    bool done = false;
    std::exception_ptr error;
  };
  void work(const WorkerRunner& run);
  void run_root(const WorkerRunner& run, std::size_t index);

  std::function<std::unique_ptr<sched::DfsStrategy>()> make_strategy_;
  std::uint64_t program_seed_;
  std::vector<std::vector<int>> roots_;
  int per_root_;
  std::function<bool()> stop_requested_;

  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Root> results_;  // by root
  std::size_t next_root_ = 0;  // the next root a worker starts
  std::size_t lowest_found_;   // the first root whose search found one
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace racelab::controlled_internal

#endif  // RACELAB_SPLIT_TREE_POOL_H_
