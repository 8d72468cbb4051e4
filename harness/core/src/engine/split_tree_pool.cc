// The rooted searches of a split dfs search; see split_tree_pool.h.
#include "racelab/split_tree_pool.h"

#include <utility>

namespace racelab::controlled_internal {

SplitTreePool::SplitTreePool(
    std::vector<WorkerRunner> runners,
    std::function<std::unique_ptr<sched::DfsStrategy>()> make_strategy,
    std::uint64_t program_seed, std::vector<std::vector<int>> roots,
    int per_root, std::function<bool()> stop_requested)
    : make_strategy_(std::move(make_strategy)),
      program_seed_(program_seed),
      roots_(std::move(roots)),
      per_root_(per_root),
      stop_requested_(std::move(stop_requested)),
      results_(roots_.size()),
      lowest_found_(roots_.size()) {
  threads_.reserve(runners.size());
  for (WorkerRunner& runner : runners) {
    threads_.emplace_back([this, run = std::move(runner)] { work(run); });
  }
}

SplitTreePool::~SplitTreePool() {
  {
    std::lock_guard<std::mutex> hold(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void SplitTreePool::work(const WorkerRunner& run) {
  for (;;) {
    std::size_t index;
    {
      std::lock_guard<std::mutex> hold(mu_);
      // A root after one whose search found something is never reached.
      if (stopping_ || next_root_ >= roots_.size() ||
          next_root_ > lowest_found_) {
        return;
      }
      index = next_root_++;
    }
    run_root(run, index);
  }
}

void SplitTreePool::run_root(const WorkerRunner& run, std::size_t index) {
  std::unique_ptr<sched::DfsStrategy> strategy = make_strategy_();
  strategy->root_at(roots_[index]);
  std::exception_ptr error;
  for (int ran = 0; ran < per_root_; ++ran) {
    {
      std::lock_guard<std::mutex> hold(mu_);
      if (stopping_ || index > lowest_found_) break;
    }
    if (stop_requested_ && stop_requested_()) break;
    std::optional<RunObservation> outcome;
    try {
      outcome = run(program_seed_, *strategy);
    } catch (...) {
      error = std::current_exception();
      break;
    }
    const bool found = !outcome->findings.empty();
    const bool more = outcome->more_schedules && !found;
    {
      std::lock_guard<std::mutex> hold(mu_);
      results_[index].outcomes.push_back(std::move(*outcome));
      if (found && index < lowest_found_) lowest_found_ = index;
    }
    changed_.notify_all();
    if (!more) break;
  }
  {
    std::lock_guard<std::mutex> hold(mu_);
    results_[index].done = true;
    results_[index].error = error;
  }
  changed_.notify_all();
}

std::optional<RunObservation> SplitTreePool::take(std::uint64_t position) {
  std::unique_lock<std::mutex> hold(mu_);
  for (;;) {
    // Walk the roots in order to the one that holds `position`.
    std::uint64_t base = 0;
    std::size_t r = 0;
    bool waiting = false;
    for (; r < results_.size(); ++r) {
      Root& root = results_[r];
      const std::uint64_t have = root.outcomes.size();
      if (position < base + have) {
        RunObservation outcome = std::move(root.outcomes[position - base]);
        // More schedules come after this one: this root's (its search said
        // so, or it has not ended), or a later root's. The loop reaches the
        // last root's last schedule only when every root before was searched
        // to its end: a root cut by the budget, a stop or a finding ends the
        // loop before that.
        const bool last_root = r + 1 == results_.size();
        const bool more_here =
            outcome.more_schedules || position + 1 < base + have || !root.done;
        outcome.more_schedules =
            outcome.findings.empty() && (more_here || !last_root);
        return outcome;
      }
      if (!root.done) {
        waiting = true;
        break;
      }
      if (root.error) std::rethrow_exception(root.error);
      base += have;
    }
    if (!waiting) return std::nullopt;  // every root ended before `position`
    if (stopping_) return std::nullopt;
    changed_.wait(hold);
  }
}

}  // namespace racelab::controlled_internal
