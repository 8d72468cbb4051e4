// Shrinking a failing schedule to the fewest preemptions that still fail.
//
// First greedy, to a fixpoint: rerun the case with one preemption removed (the
// preempted thread continues there; later decisions follow the old list as
// far as they still apply, or are dropped for the replay fallback) and keep
// the change when the case still fails with fewer preemptions. Then, while
// the run budget lasts, a preemption-bounded search (dfs with bound 0, 1, ...
// below the greedy result) looks for a failing schedule with fewer
// preemptions that the greedy steps cannot reach. Finally the tail of
// decisions that the replay fallback would make anyway is dropped.
//
// A failing program is shrunk too (shrink_program), as Lincheck shrinks its
// scenarios: whole threads first, then a thread's operations (from its end),
// then the operations run before and after the threads; each removal is rerun
// on the schedule with the removed turns taken out (a lenient replay) and kept
// when the case still fails the same way. Then the schedule is shrunk again on
// the smaller program.
#ifndef RACELAB_SCHED_SHRINK_H_
#define RACELAB_SCHED_SHRINK_H_

#include <functional>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"

namespace racelab::sched {

// Reruns the case under `strategy` (made by the shrinker: a lenient replay,
// or dfs in the search phase) and returns whether it still fails. It must
// pass `strategy` to ControlledScheduler::run and let a ScheduleError from
// run() propagate.
using FailurePredicate = std::function<bool(Strategy& strategy)>;

struct ShrinkResult {
  std::vector<int> decisions;  // replays the shrunk failing schedule
  int preemptions = 0;         // in the shrunk schedule
  int runs = 0;                // reruns of the case
  bool reproduced = false;     // false: `failing` did not fail when replayed
};

// `max_runs` bounds the reruns; the best schedule found so far is returned.
ShrinkResult shrink_schedule(const std::vector<int>& failing,
                             const FailurePredicate& fails, int max_runs = 500);

// A program as the program shrinker sees it: each operation an opaque text,
// per logical thread, plus the operations run before the threads start
// (setup) and after they all finished (finale), outside the schedule.
struct ShrinkProgram {
  std::vector<std::string> setup;
  std::vector<std::vector<std::string>> threads;
  std::vector<std::string> finale;

  int thread_operations() const;  // operations of all threads
  bool operator==(const ShrinkProgram&) const = default;
};

// Reruns the case on `program` under `strategy` and returns whether it still
// fails the same way (same kinds of finding: a removal that makes another kind
// of failure appear does not count). It stores the scheduler's result in
// `run`; thread i of `program` must run as logical thread i and call
// ControlledScheduler::begin_operation(k) before the scheduling point that
// starts its operation k, so that run.decision_operations is filled. As with
// FailurePredicate, it must pass `strategy` to ControlledScheduler::run and
// let a ScheduleError propagate.
using ProgramFailurePredicate = std::function<bool(
    const ShrinkProgram& program, Strategy& strategy, RunResult& run)>;

struct ProgramShrinkResult {
  ShrinkProgram program;       // the smallest program found that still fails
  std::vector<int> decisions;  // replays (leniently) its failing schedule
  int preemptions = 0;         // in that schedule
  int runs = 0;                // reruns of the case
  bool reproduced = false;     // false: `failing` did not fail when replayed
};

// The decisions of `decisions` without the turns of thread `thread`, later
// threads renumbered one down: the schedule of the program without that
// thread.
std::vector<int> without_thread(const std::vector<int>& decisions, int thread);
// The decisions without the turns in which `thread` ran one of its
// operations [begin, end) (`decision_operations` as in RunResult): the
// schedule of the program without those operations.
std::vector<int> without_operations(const std::vector<int>& decisions,
                                    const std::vector<int>& decision_operations,
                                    int thread, int begin, int end);

// Shrinks `failing` (a program whose schedule `decisions` fails) by removing
// threads and operations, then shrinks the schedule's preemptions on the
// result (shrink_schedule). Passes, until one removes nothing: each thread on
// its own, the last first; then runs of a thread's operations, half of them
// first, halving down to one, the last run of each size first; then the same
// for the setup and finale operations. Each removal reruns the case once, on
// the schedule without the removed turns (without_thread,
// without_operations, a lenient replay), and is kept when that rerun fails
// with no more scheduling decisions than the one before. A program keeps at
// least one thread and every thread at least one operation. At most
// `max_runs` reruns in all: removals stop when only `preemption_runs` are
// left, which the last preemption shrink may use.
ProgramShrinkResult shrink_program(const ShrinkProgram& failing,
                                   const std::vector<int>& decisions,
                                   const ProgramFailurePredicate& fails,
                                   int max_runs = 300,
                                   int preemption_runs = 100);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SHRINK_H_
