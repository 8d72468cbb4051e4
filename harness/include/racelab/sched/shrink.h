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
#ifndef RACELAB_SCHED_SHRINK_H_
#define RACELAB_SCHED_SHRINK_H_

#include <functional>
#include <vector>

#include "racelab/sched/strategy.h"

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

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SHRINK_H_
