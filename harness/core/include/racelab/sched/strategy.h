// Strategies: how the controlled scheduler picks the next logical thread.
//
// random: uniform random walk. pct: probabilistic concurrency testing
// (Burckhardt et al., ASPLOS 2010). dfs: exhaustive search over schedules with
// at most P preemptions (CHESS). replay: follows a recorded decision list.
// All are deterministic: the same seed (or decision list) and the same program
// give the same schedules.
#ifndef RACELAB_SCHED_STRATEGY_H_
#define RACELAB_SCHED_STRATEGY_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace racelab::sched {

// A schedule cannot be followed: a replayed decision names a thread that does
// not exist or is not enabled, or a program behaves differently when rerun.
class ScheduleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  // "random", "pct", "dfs", "replay".
  virtual std::string_view name() const = 0;

  // A schedule of `thread_count` logical threads begins.
  virtual void begin_schedule(int thread_count) = 0;

  // Picks the thread to run next. `enabled` lists the threads that can run,
  // ascending, never empty; `current` is the thread that reached the
  // scheduling point (absent from `enabled` when it blocked or finished), -1
  // at the start. Picking another thread while `current` is enabled is a
  // preemption.
  virtual int pick(const std::vector<int>& enabled, int current) = 0;

  // The schedule ended. Returns whether there are more schedules to explore
  // (false once dfs has exhausted its tree, and for replay).
  virtual bool end_schedule() = 0;
};

// A small deterministic generator (splitmix64), the same on every platform.
class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  int below(int bound);  // uniform in [0, bound), bound > 0

 private:
  std::uint64_t state_;
};

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(std::uint64_t seed) : random_(seed) {}
  std::string_view name() const override { return "random"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int current) override;
  bool end_schedule() override { return true; }

 private:
  SeededRandom random_;
};

// PCT with depth d: threads get random distinct priorities d..d+n-1 and the
// highest-priority enabled thread always runs; at d-1 change points, drawn
// uniformly over the estimated number of steps k, the running thread drops to
// priority d-i (below every initial one). k starts at
// `initial_step_estimate` and becomes the longest schedule seen so far.
class PctStrategy final : public Strategy {
 public:
  PctStrategy(std::uint64_t seed, int depth, int initial_step_estimate = 64);
  std::string_view name() const override { return "pct"; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  bool end_schedule() override;

  int step_estimate() const { return step_estimate_; }

 private:
  SeededRandom random_;
  int depth_;
  int step_estimate_;
  int step_ = 0;
  std::vector<int> priority_;       // by thread
  std::vector<int> change_points_;  // ascending steps, 1-based
  std::size_t changes_done_ = 0;
};

// Depth-first search over all schedules with at most `preemption_bound`
// preemptions. At each point the first choice is to let the current thread
// continue (or the lowest enabled thread when it cannot); the others are
// explored in ascending order. end_schedule() returns false when the tree is
// exhausted; the next schedule then starts the search over.
class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(int preemption_bound);
  std::string_view name() const override { return "dfs"; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  bool end_schedule() override;

  int schedules_explored() const { return explored_; }
  bool exhausted() const { return exhausted_; }

 private:
  struct Point {
    std::vector<int> enabled;
    int current;
    std::vector<int> choices;  // in exploration order
    std::size_t chosen = 0;    // index into choices
  };
  int bound_;
  std::vector<Point> path_;  // decision points of the schedule being explored
  std::size_t step_ = 0;
  int preemptions_ = 0;
  int explored_ = 0;
  bool exhausted_ = false;
};

enum class ReplayMode {
  kStrict,   // a decision that names a thread that is not enabled throws
  kLenient,  // such a decision falls back, as when decisions run out
};

// Follows `decisions`, one per scheduling point. When they run out (or, when
// lenient, when one is impossible) it continues the current thread if
// enabled, else the lowest enabled thread.
class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(std::vector<int> decisions,
                          ReplayMode mode = ReplayMode::kStrict);
  std::string_view name() const override { return "replay"; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  bool end_schedule() override { return false; }

  // Decisions followed in the last schedule, and whether (lenient) any had to
  // be replaced by the fallback.
  int decisions_followed() const { return followed_; }
  bool diverged() const { return diverged_; }

 private:
  std::vector<int> decisions_;
  ReplayMode mode_;
  int thread_count_ = 0;
  std::size_t step_ = 0;
  int followed_ = 0;
  bool diverged_ = false;
};

// The choice replay makes when it has no usable decision: the current thread
// if it is enabled, else the lowest enabled thread.
int fallback_choice(const std::vector<int>& enabled, int current);

// Makes a strategy by name: "random" (seed), "pct" (seed, depth >= 1), "dfs"
// (preemption_bound >= 0), "replay" (decisions, strict). Throws
// std::invalid_argument on an unknown name or an out-of-range parameter.
std::unique_ptr<Strategy> make_strategy(std::string_view name,
                                        std::uint64_t seed, int depth = 3,
                                        int preemption_bound = 2,
                                        std::vector<int> decisions = {});

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_STRATEGY_H_
