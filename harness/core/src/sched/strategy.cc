// Scheduling strategies: random walk, PCT, preemption-bounded DFS, replay.
#include "racelab/sched/strategy.h"

#include <algorithm>
#include <string>
#include <utility>

namespace racelab::sched {
namespace {

bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

}  // namespace

std::uint64_t SeededRandom::next() {
  state_ += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

int SeededRandom::below(int bound) {
  if (bound <= 1) return 0;
  const auto range = static_cast<std::uint64_t>(bound);
  // Rejection sampling keeps the choice exactly uniform.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % range);
  std::uint64_t value;
  do {
    value = next();
  } while (value >= limit);
  return static_cast<int>(value % range);
}

int fallback_choice(const std::vector<int>& enabled, int current) {
  return contains(enabled, current) ? current : enabled.front();
}

// --- random ---------------------------------------------------------------

int RandomStrategy::pick(const std::vector<int>& enabled, int /*current*/) {
  return enabled[random_.below(static_cast<int>(enabled.size()))];
}

// --- pct ------------------------------------------------------------------

PctStrategy::PctStrategy(std::uint64_t seed, int depth,
                         int initial_step_estimate)
    : random_(seed),
      depth_(depth),
      step_estimate_(std::max(initial_step_estimate, 1)) {
  if (depth < 1) throw std::invalid_argument("pct: depth must be at least 1");
}

void PctStrategy::begin_schedule(int thread_count) {
  step_ = 0;
  changes_done_ = 0;
  // Distinct initial priorities depth .. depth+n-1 in random order.
  priority_.resize(static_cast<std::size_t>(std::max(thread_count, 0)));
  for (std::size_t i = 0; i < priority_.size(); ++i) {
    priority_[i] = depth_ + static_cast<int>(i);
  }
  for (std::size_t i = priority_.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(random_.below(static_cast<int>(i)));
    std::swap(priority_[i - 1], priority_[j]);
  }
  // depth-1 change points in [1, k], distinct when k allows it.
  change_points_.clear();
  const int wanted = depth_ - 1;
  while (static_cast<int>(change_points_.size()) < wanted) {
    const int point = 1 + random_.below(step_estimate_);
    if (step_estimate_ >= wanted && contains(change_points_, point)) continue;
    change_points_.push_back(point);
  }
  std::sort(change_points_.begin(), change_points_.end());
}

int PctStrategy::pick(const std::vector<int>& enabled, int current) {
  ++step_;
  while (changes_done_ < change_points_.size() &&
         change_points_[changes_done_] <= step_) {
    ++changes_done_;
    // The i-th change point lowers the running thread below every initial
    // priority: to depth - i.
    if (current >= 0 && current < static_cast<int>(priority_.size())) {
      priority_[static_cast<std::size_t>(current)] =
          depth_ - static_cast<int>(changes_done_);
    }
  }
  int best = enabled.front();
  for (int thread : enabled) {
    if (thread >= static_cast<int>(priority_.size())) continue;
    if (best >= static_cast<int>(priority_.size()) ||
        priority_[static_cast<std::size_t>(thread)] >
            priority_[static_cast<std::size_t>(best)]) {
      best = thread;
    }
  }
  return best;
}

bool PctStrategy::end_schedule() {
  step_estimate_ = std::max(step_estimate_, step_);
  return true;
}

// --- dfs ------------------------------------------------------------------

DfsStrategy::DfsStrategy(int preemption_bound) : bound_(preemption_bound) {
  if (preemption_bound < 0) {
    throw std::invalid_argument("dfs: the preemption bound must be >= 0");
  }
}

void DfsStrategy::begin_schedule(int /*thread_count*/) {
  if (exhausted_) {
    exhausted_ = false;
    path_.clear();
  }
  step_ = 0;
  preemptions_ = 0;
}

int DfsStrategy::pick(const std::vector<int>& enabled, int current) {
  const bool current_enabled = contains(enabled, current);
  int choice;
  if (step_ < path_.size()) {
    // Replaying the prefix that leads to the next unexplored choice.
    const Point& point = path_[step_];
    if (point.enabled != enabled || point.current != current) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " thread " + std::to_string(current) +
          " is current with threads {" + join(enabled) +
          "} enabled, where the last run had thread " +
          std::to_string(point.current) + " with {" + join(point.enabled) +
          "}");
    }
    choice = point.choices[point.chosen];
  } else {
    Point point{enabled, current, {}, 0};
    if (current_enabled) {
      point.choices.push_back(current);
      if (preemptions_ < bound_) {
        for (int thread : enabled) {
          if (thread != current) point.choices.push_back(thread);
        }
      }
    } else {
      point.choices = enabled;
    }
    choice = point.choices.front();
    path_.push_back(std::move(point));
  }
  if (current_enabled && choice != current) ++preemptions_;
  ++step_;
  return choice;
}

bool DfsStrategy::end_schedule() {
  ++explored_;
  path_.resize(std::min(path_.size(), step_));
  while (!path_.empty() &&
         path_.back().chosen + 1 >= path_.back().choices.size()) {
    path_.pop_back();
  }
  if (path_.empty()) {
    exhausted_ = true;
    return false;
  }
  ++path_.back().chosen;
  return true;
}

// --- replay ---------------------------------------------------------------

ReplayStrategy::ReplayStrategy(std::vector<int> decisions, ReplayMode mode)
    : decisions_(std::move(decisions)), mode_(mode) {}

void ReplayStrategy::begin_schedule(int thread_count) {
  thread_count_ = thread_count;
  step_ = 0;
  followed_ = 0;
  diverged_ = false;
}

int ReplayStrategy::pick(const std::vector<int>& enabled, int current) {
  const std::size_t step = step_++;
  if (step < decisions_.size()) {
    const int decision = decisions_[step];
    if (contains(enabled, decision)) {
      ++followed_;
      return decision;
    }
    if (mode_ == ReplayMode::kStrict) {
      const bool exists = decision >= 0 && decision < thread_count_;
      throw ScheduleError(
          "replay: step " + std::to_string(step) + " decides thread " +
          std::to_string(decision) + ", which " +
          (exists ? std::string("is not enabled")
                  : "does not exist (the program has " +
                        std::to_string(thread_count_) + " threads)") +
          "; enabled threads: {" + join(enabled) + "}");
    }
    diverged_ = true;
  }
  return fallback_choice(enabled, current);
}

// --- factory --------------------------------------------------------------

std::unique_ptr<Strategy> make_strategy(std::string_view name,
                                        std::uint64_t seed, int depth,
                                        int preemption_bound,
                                        std::vector<int> decisions) {
  if (name == "random") return std::make_unique<RandomStrategy>(seed);
  if (name == "pct") return std::make_unique<PctStrategy>(seed, depth);
  if (name == "dfs") return std::make_unique<DfsStrategy>(preemption_bound);
  if (name == "replay") {
    return std::make_unique<ReplayStrategy>(std::move(decisions));
  }
  throw std::invalid_argument("unknown strategy '" + std::string(name) +
                              "' (expected random, pct, dfs or replay)");
}

}  // namespace racelab::sched
