// Strategies: how the controlled scheduler picks the next logical thread.
//
// random: uniform random walk. pct: probabilistic concurrency testing
// (Burckhardt et al., ASPLOS 2010). dfs: exhaustive search with partial-order
// reduction (DfsStrategy: source sets and sleep sets, Abdulla et al., POPL
// 2014), optionally within P preemptions. plain-dfs: every schedule with at
// most P preemptions (CHESS; PlainDfsStrategy). replay: follows a recorded
// decision list. All are deterministic: the same seed (or decision list) and
// the same program give the same schedules.
#ifndef RACELAB_SCHED_STRATEGY_H_
#define RACELAB_SCHED_STRATEGY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "racelab/internal/scheduling_hooks.h"

namespace racelab::sched {

// What one step of a logical thread touched: the access of the scheduling
// point it was picked at, then every object it touched on its way to the next
// point (scheduling_hooks.h).
using Footprint = std::vector<PointAccess>;

// Whether some access of `a` depends on some access of `b`.
bool dependent(const Footprint& a, const Footprint& b);

// A schedule cannot be followed: a replayed decision names a thread that does
// not exist or is not enabled, or a program behaves differently when rerun.
class ScheduleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The strategies, by kind: what the engine decides on (never the name).
enum class StrategyKind { kRandom, kPct, kDfs, kPlainDfs, kReplay };

// The kind a strategy name ("random", "pct", "dfs", "plain-dfs", "replay")
// stands for; nullopt for any other text.
std::optional<StrategyKind> strategy_kind(std::string_view name);

// Whether strategies of `kind` search a tree of one program's schedules (dfs,
// plain-dfs): every schedule of the search must run the same program, and a
// search whose tree is exhausted has tried every schedule (within its
// bound) of that program.
constexpr bool searches_one_program(StrategyKind kind) {
  return kind == StrategyKind::kDfs || kind == StrategyKind::kPlainDfs;
}

class Strategy {
 public:
  virtual ~Strategy() = default;

  // "random", "pct", "dfs", "plain-dfs", "replay": for messages and files.
  virtual std::string_view name() const = 0;

  // Whether this strategy searches a tree of one program's schedules
  // (searches_one_program(StrategyKind)).
  virtual bool searches_one_program() const { return false; }

  // A schedule of `thread_count` logical threads begins.
  virtual void begin_schedule(int thread_count) = 0;

  // Picks the thread to run next. `enabled` lists the threads that can run,
  // ascending, never empty; `current` is the thread that reached the
  // scheduling point (absent from `enabled` when it blocked or finished), -1
  // at the start. Picking another thread while `current` is enabled is a
  // preemption.
  virtual int pick(const std::vector<int>& enabled, int current) = 0;

  // The memory-model mode (memory_model.h): which of `count` stores (> 1)
  // the running thread's atomic load reads, 0 the oldest it may read,
  // count-1 the latest. A decision like a pick (recorded, replayed, saved),
  // taken inside the thread's step. The default picks as among threads 0 to
  // count-1 with the latest current, so a replay follows it and falls back
  // to the latest.
  virtual int pick_value(int count);

  // The step `thread` ran since it was last picked touched `footprint`.
  // Called at every scheduling point reached by a running thread, before
  // pick(), and at the end of the last step of a run.
  virtual void step_finished(int thread, const Footprint& footprint) {
    static_cast<void>(thread);
    static_cast<void>(footprint);
  }

  // Whether next_accesses() should be called before every pick().
  virtual bool wants_next_accesses() const { return false; }
  // By thread, what the next step of each thread touches first (the access
  // of the scheduling point it stopped at; none for a thread not started).
  virtual void next_accesses(const std::vector<PointAccess>& by_thread) {
    static_cast<void>(by_thread);
  }

  // The schedule ended. Returns whether there are more schedules to explore
  // (false once dfs has exhausted its tree, and for replay).
  virtual bool end_schedule() = 0;

  // Numbered schedules (pct, random): schedule i of a search is a function
  // of the seed, i and a calibration alone, never of the schedules run
  // before it, so a search may run them in any order, on several workers or
  // machines, and still meet the same first failing schedule.
  virtual bool numbered() const { return false; }
  // Whether the schedules need the calibration: the steps (picks) of
  // schedule 0, which the engine runs first (pct's estimate of a schedule's
  // length).
  virtual bool needs_calibration() const { return false; }
  // The next schedule is schedule `index` of the search; `calibration` is
  // the steps schedule 0 took (0 for schedule 0 itself). Called before
  // begin_schedule by a search; a strategy never numbered runs its
  // schedules as one stream.
  virtual void number_schedule(std::uint64_t index, int calibration) {
    static_cast<void>(index);
    static_cast<void>(calibration);
  }
  // The picks of the schedule that ended last.
  virtual int steps_taken() const { return 0; }

  // Whether the scheduler keeps the trace (RunResult::trace) of the schedules
  // this strategy picks; on by default. A search turns it off: only a failing
  // schedule's trace is ever read, and the search replays that one with the
  // trace on (minimize_failure, with_trace).
  bool records_trace() const { return records_trace_; }
  void set_records_trace(bool on) { records_trace_ = on; }

 private:
  bool records_trace_ = true;
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

// The seed of numbered schedule `index` of a search seeded `seed`.
std::uint64_t schedule_seed(std::uint64_t seed, std::uint64_t index);

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(std::uint64_t seed) : seed_(seed), random_(seed) {}
  std::string_view name() const override { return "random"; }
  void begin_schedule(int) override { steps_ = 0; }
  int pick(const std::vector<int>& enabled, int current) override;
  int pick_value(int count) override { return random_.below(count); }
  bool end_schedule() override { return true; }
  bool numbered() const override { return true; }
  void number_schedule(std::uint64_t index, int) override {
    random_ = SeededRandom(schedule_seed(seed_, index));
  }
  int steps_taken() const override { return steps_; }

 private:
  std::uint64_t seed_;
  SeededRandom random_;
  int steps_ = 0;
};

// PCT with depth d: threads get random distinct priorities d..d+n-1 and the
// highest-priority enabled thread always runs; at d-1 change points, drawn
// uniformly over the estimated number of steps k, the running thread drops to
// priority d-i (below every initial one). k starts at
// `initial_step_estimate`; in a numbered search, from schedule 1 on, it is
// the steps of schedule 0 (the calibration: change points past a run's end
// would be wasted), else the longest schedule seen so far.
class PctStrategy final : public Strategy {
 public:
  PctStrategy(std::uint64_t seed, int depth, int initial_step_estimate = 64);
  std::string_view name() const override { return "pct"; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  // Uniform over the stores: a stale read is no change of priority.
  int pick_value(int count) override { return random_.below(count); }
  bool end_schedule() override;
  bool numbered() const override { return true; }
  bool needs_calibration() const override { return true; }
  void number_schedule(std::uint64_t index, int calibration) override;
  int steps_taken() const override { return step_; }

  int step_estimate() const { return step_estimate_; }

 private:
  // Gives the threads up to `thread` that begin_schedule was not told of (a
  // whole program creates its threads as it runs) their initial priorities.
  void meet(int thread);

  std::uint64_t seed_;
  SeededRandom random_;
  int depth_;
  int initial_estimate_;
  int step_estimate_;
  bool numbered_ = false;
  int step_ = 0;
  std::vector<int> priority_;       // by thread
  std::vector<int> change_points_;  // ascending steps, 1-based
  std::size_t changes_done_ = 0;
};

// Plain depth-first search ("plain-dfs") over all schedules with at most
// `preemption_bound` preemptions. At each point the first choice is to let the
// current thread continue (or the lowest enabled thread when it cannot); the
// others are explored in ascending order. end_schedule() returns false when the
// tree is exhausted; the next schedule then starts the search over.
class PlainDfsStrategy final : public Strategy {
 public:
  explicit PlainDfsStrategy(int preemption_bound);
  std::string_view name() const override { return "plain-dfs"; }
  bool searches_one_program() const override { return true; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  // Every store, the latest first; no preemption.
  int pick_value(int count) override;
  bool end_schedule() override;

  int schedules_explored() const { return explored_; }
  bool exhausted() const { return exhausted_; }

 private:
  static constexpr int kValuePoint = -2;  // Point::current of pick_value
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

// Dynamic partial-order reduction: explores one schedule of every class of
// schedules that differ only in the order of independent steps (steps of
// different threads whose footprints are not dependent(), e.g. two threads
// on different locks), using source sets and sleep sets (Abdulla, Aronis,
// Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// Algorithm 1). After each schedule it finds the races (dependent steps of
// different threads not ordered by other steps) and adds, where the earlier
// one was taken, a thread that starts their reversal; a thread already
// explored there sleeps in every later sibling until a step dependent on its
// own runs. The footprint of a step is what the scheduler recorded while it
// ran (Strategy::step_finished).
//
// Soundness. The search covers every behaviour of a program whose
// conflicting plain-memory accesses are ordered by the synchronisation the
// scheduler models (locks, atomics, condition variables, joins, the history
// clock): steps are atomic only up to such accesses. A program with an
// unordered conflicting access has a data race, which ThreadSanitizer reports
// in the schedules explored. For the same reason a scenario's pause inside
// an operation touches nothing (kNone). A step whose scheduling point names
// no object (a yield, a sleep, a point the program named) is dependent on
// everything. On the history clock (every call and return takes a tick) a
// call and a return of different threads are dependent, so every real-time
// order of the operations (which operation returned before which was called),
// all the linearizability verdict depends on, is explored; two calls or two
// returns commute.
//
// Objects across schedules. Every schedule runs the program anew, and the
// objects it makes (a store's locks and atomics) may sit at other addresses
// than in the schedule before. So the search never compares addresses of
// different schedules: an object is known by the order of its first use in
// the schedule (its id), which is the same in two schedules as long as they
// share the steps up to that use. A step recorded in an earlier schedule
// (one asleep, or explored, at a point) may touch an object that the steps
// before that point had not used. The object its scheduling point names is
// the one the thread, still stopped at that point, names in this schedule
// (next_accesses()); any other such object is taken to be any object that
// this schedule first uses after that point (of the same kind), which may
// explore more schedules, never fewer. So the schedules depend only on the
// program and the decisions, wherever the allocator puts its objects.
//
// With a preemption bound (>= 0) a reversal that would need more
// preemptions is not explored. DPOR within a bound is not complete in
// general (a class may be reachable within the bound only through schedules
// the reduction skipped): a clean search is "verified within the bound".
// Without one (kUnbounded) an exhausted search has explored every class.
class DfsStrategy final : public Strategy {
 public:
  static constexpr int kUnbounded = -1;
  explicit DfsStrategy(int preemption_bound = kUnbounded);
  std::string_view name() const override { return "dfs"; }
  bool searches_one_program() const override { return true; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  // A node of its own inside the thread's step: every store is explored,
  // the latest first, whatever the bound. Sleep sets pass through it: a
  // thread asleep at the step's node slept because its own step is
  // independent of this one, so this load reads the same stores after it.
  int pick_value(int count) override;
  void step_finished(int thread, const Footprint& footprint) override;
  bool wants_next_accesses() const override { return true; }
  void next_accesses(const std::vector<PointAccess>& by_thread) override {
    next_ = by_thread;
  }
  bool end_schedule() override;

  int schedules_explored() const { return explored_; }
  bool exhausted() const { return exhausted_; }
  int preemption_bound() const { return bound_; }
  // Schedules in which every enabled thread was asleep at some point: they
  // repeat a class already explored and were run to their end anyway.
  int sleep_blocked() const { return sleep_blocked_; }

  // Roots the search at `prefix` (before its first schedule): every schedule
  // begins with these decisions, and the search covers the classes of
  // schedules that begin with them. A race that would reorder a step of the
  // prefix is left to the searches rooted at the prefix's siblings: a split
  // search (split_tree.h) roots one search at each choice of the tree's
  // first branching decision.
  void root_at(std::vector<int> prefix) { root_ = std::move(prefix); }
  // With record_decisions(true), the threads each decision of the last
  // schedule could pick within the bound, in the order dfs tries them (the
  // one it tries first at the front), and the one it picked.
  struct Decision {
    std::vector<int> choices;
    int chosen = -1;
  };
  void record_decisions(bool on) { recording_ = on; }
  const std::vector<Decision>& last_decisions() const { return decisions_; }
  // The roots of a split search: for the first of `first` (a schedule's
  // recorded decisions) with more than one choice, the decisions before it
  // followed by each of its choices, in the order dfs tries them. Empty when
  // no decision had a choice (the tree is that one schedule).
  static std::vector<std::vector<int>> split_roots(
      const std::vector<Decision>& first);

 private:
  // One access of a step, with its object known by id (see above): the
  // order of first use in the schedule for objects in memory, the object
  // itself for threads and the history clock (the same in every schedule).
  struct Touch {
    ObjectKind kind = ObjectKind::kUnknown;
    std::uintptr_t object = 0;
    AccessKind access = AccessKind::kWrite;
    bool by_first_use = false;  // object is an id of first use
  };
  using Steps = std::vector<Touch>;
  struct Asleep {
    int thread;
    Steps footprint;  // of the step it took from where it fell asleep
    // Objects in use before that step: ids from here on were new there.
    std::size_t known = 0;
  };
  struct Node {
    std::vector<int> enabled;
    int current = -1;
    int preemptions = 0;  // before this decision
    int chosen = -1;
    std::size_t known = 0;       // objects in use before the chosen step
    Steps footprint;             // of the chosen thread's step
    Footprint raw;               // the same, as this schedule's addresses
    std::vector<int> backtrack;  // threads to explore here (chosen included)
    std::vector<Asleep> sleep;   // asleep on arrival
    std::vector<Asleep> done;    // explored here, with the step each took
    bool rooted = false;         // a decision of the root (root_at)
    // A pick_value node: `enabled` lists the stores, `backtrack` every one
    // in the order tried; no thread, no step, no sleep set.
    bool value = false;
  };
  // The first node after `i` that is a thread's step (not a value node).
  std::size_t next_step(std::size_t i) const;
  // Whether `step` (its touches from index `from` on) depends on `other`, a
  // step of this schedule; `fresh`: ids from here on in `step` stand for any
  // object first used after the point where `step` was taken (a step of an
  // earlier schedule), SIZE_MAX for a step of this one.
  static bool depends(const Steps& step, std::size_t from, const Steps& other,
                      std::size_t fresh);
  // Whether the step `asleep` took (in an earlier schedule) depends on the
  // step just taken at `parent` in this one.
  bool wakes(const Asleep& asleep, const Node& parent) const;
  Steps identify(const Footprint& footprint);
  bool allowed(const Node& node, int thread) const;
  bool asleep(const Node& node, int thread) const;
  void find_races();
  void reverse_race(std::size_t i, std::size_t j,
                    const std::vector<std::vector<int>>& clocks,
                    const std::vector<int>& clock_j);

  int bound_;
  std::vector<Node> path_;
  // This schedule's objects in memory, by kind and address: their ids.
  std::map<std::pair<ObjectKind, const void*>, std::size_t> ids_;
  // next_accesses() before this pick (empty when the scheduler gives none).
  std::vector<PointAccess> next_;
  std::size_t replay_ = 0;  // path_ entries the next schedule follows
  std::size_t fresh_ = 0;   // the first step this schedule chose anew
  std::size_t step_ = 0;
  int preemptions_ = 0;
  bool blocked_ = false;
  int explored_ = 0;
  int sleep_blocked_ = 0;
  std::vector<int> root_;
  bool recording_ = false;
  std::vector<Decision> decisions_;
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
// (DfsStrategy; preemption_bound >= 0, or DfsStrategy::kUnbounded),
// "plain-dfs" (PlainDfsStrategy; preemption_bound >= 0), "replay" (decisions,
// strict). Throws std::invalid_argument on an unknown name or an
// out-of-range parameter.
std::unique_ptr<Strategy> make_strategy(std::string_view name,
                                        std::uint64_t seed, int depth = 3,
                                        int preemption_bound = 2,
                                        std::vector<int> decisions = {});

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_STRATEGY_H_
