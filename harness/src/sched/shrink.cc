// Schedule shrinking: greedy removal of preemptions, a preemption-bounded
// search below the greedy result, then tail trimming.
#include "racelab/sched/shrink.h"

#include <algorithm>
#include <utility>

namespace racelab::sched {
namespace {

// One scheduling point as it happened in a rerun.
struct Step {
  std::vector<int> enabled;
  int current;
  int chosen;

  bool is_preemption() const {
    return chosen != current &&
           std::find(enabled.begin(), enabled.end(), current) != enabled.end();
  }
};

// Wraps a strategy and records what happened at every point.
class Recorder final : public Strategy {
 public:
  explicit Recorder(Strategy& inner) : inner_(inner) {}

  std::string_view name() const override { return inner_.name(); }
  void begin_schedule(int thread_count) override {
    steps_.clear();
    inner_.begin_schedule(thread_count);
  }
  int pick(const std::vector<int>& enabled, int current) override {
    const int chosen = inner_.pick(enabled, current);
    steps_.push_back(Step{enabled, current, chosen});
    return chosen;
  }
  bool end_schedule() override { return inner_.end_schedule(); }

  std::vector<Step> take_steps() { return std::move(steps_); }

 private:
  Strategy& inner_;
  std::vector<Step> steps_;
};

struct Attempt {
  bool failed = false;
  std::vector<Step> steps;

  int preemptions() const {
    return static_cast<int>(
        std::count_if(steps.begin(), steps.end(),
                      [](const Step& step) { return step.is_preemption(); }));
  }
  std::vector<int> decisions() const {
    std::vector<int> out;
    out.reserve(steps.size());
    for (const Step& step : steps) out.push_back(step.chosen);
    return out;
  }
};

Attempt run_once(Strategy& strategy, const FailurePredicate& fails) {
  Recorder recorder(strategy);
  Attempt result;
  result.failed = fails(recorder);
  result.steps = recorder.take_steps();
  return result;
}

Attempt replay(const std::vector<int>& decisions,
               const FailurePredicate& fails) {
  ReplayStrategy strategy(decisions, ReplayMode::kLenient);
  return run_once(strategy, fails);
}

}  // namespace

ShrinkResult shrink_schedule(const std::vector<int>& failing,
                             const FailurePredicate& fails, int max_runs) {
  ShrinkResult result;
  Attempt best = replay(failing, fails);
  result.runs = 1;
  if (!best.failed) {
    result.decisions = failing;
    result.preemptions = best.preemptions();
    return result;
  }
  result.reproduced = true;

  // Greedy: remove one preemption at a time, latest first (it disturbs the
  // least of what comes before), either keeping the rest of the decisions or
  // dropping them for the non-preemptive fallback.
  bool improved = true;
  while (improved && result.runs < max_runs) {
    improved = false;
    const std::vector<int> decisions = best.decisions();
    for (std::size_t i = best.steps.size(); i-- > 0 && !improved;) {
      if (!best.steps[i].is_preemption()) continue;
      for (bool keep_rest : {true, false}) {
        if (result.runs >= max_runs) break;
        std::vector<int> candidate = decisions;
        if (!keep_rest) candidate.resize(i + 1);
        candidate[i] = best.steps[i].current;  // let it continue
        Attempt tried = replay(candidate, fails);
        ++result.runs;
        if (tried.failed && tried.preemptions() < best.preemptions()) {
          best = std::move(tried);
          improved = true;
          break;
        }
      }
    }
  }

  // Greedy steps cannot change which thread starts, or a choice made where a
  // thread blocked or finished. Search every schedule with fewer preemptions,
  // fewest first (CHESS's iterative bounding), while the budget lasts.
  for (int bound = 0; bound < best.preemptions() && result.runs < max_runs;
       ++bound) {
    DfsStrategy dfs(bound);
    bool found = false;
    try {
      bool more = true;
      while (more && !found && result.runs < max_runs) {
        Attempt tried = run_once(dfs, fails);
        ++result.runs;
        more = !dfs.exhausted();
        if (tried.failed && tried.preemptions() < best.preemptions()) {
          best = std::move(tried);
          found = true;
        }
      }
    } catch (const ScheduleError&) {
      break;  // the case does not rerun deterministically: keep what we have
    }
    if (found) break;
  }

  // Decisions the replay fallback would make anyway add nothing at the end.
  std::size_t keep = best.steps.size();
  while (keep > 0) {
    const Step& step = best.steps[keep - 1];
    if (step.chosen != fallback_choice(step.enabled, step.current)) break;
    --keep;
  }
  result.decisions = best.decisions();
  result.decisions.resize(keep);
  result.preemptions = best.preemptions();
  return result;
}

}  // namespace racelab::sched
