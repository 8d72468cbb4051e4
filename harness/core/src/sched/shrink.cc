// Schedule shrinking: greedy removal of preemptions, a preemption-bounded
// search below the greedy result, then tail trimming. Program shrinking:
// removal of threads and operations, each rerun on the schedule without the
// removed turns.
#include "racelab/internal/sched/shrink.h"

#include <algorithm>
#include <cstddef>
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
  bool searches_one_program() const override {
    return inner_.searches_one_program();
  }
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
    PlainDfsStrategy dfs(bound);
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

int ShrinkProgram::thread_operations() const {
  int count = 0;
  for (const auto& ops : threads) count += static_cast<int>(ops.size());
  return count;
}

std::vector<int> without_thread(const std::vector<int>& decisions, int thread) {
  std::vector<int> out;
  out.reserve(decisions.size());
  for (int decision : decisions) {
    if (decision == thread) continue;
    out.push_back(decision > thread ? decision - 1 : decision);
  }
  return out;
}

std::vector<int> without_operations(const std::vector<int>& decisions,
                                    const std::vector<int>& decision_operations,
                                    int thread, int begin, int end) {
  std::vector<int> out;
  out.reserve(decisions.size());
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    if (decisions[i] == thread && i < decision_operations.size() &&
        decision_operations[i] >= begin && decision_operations[i] < end) {
      continue;
    }
    out.push_back(decisions[i]);
  }
  return out;
}

namespace {

// Removes runs of consecutive items from a list of `size()` items, at least
// `keep` of them staying: chunks of half the removable items first, then
// halving down to single items, the last chunk of each size first (removing
// the end of a list leaves what comes before it as it was). `remove(begin,
// end)` tries one removal and returns whether it was kept.
bool remove_chunks(
    const std::function<std::size_t()>& size, std::size_t keep,
    const std::function<bool(std::size_t, std::size_t)>& remove) {
  bool removed = false;
  if (size() <= keep) return false;
  std::size_t chunk = 1;
  while (chunk * 2 <= size() - keep) chunk *= 2;
  for (; chunk >= 1; chunk /= 2) {
    // After a removal of [end - chunk, end) the items before it keep their
    // places, so the next chunk down is still [end - 2 chunk, end - chunk).
    for (std::size_t end = size(); end >= chunk && size() >= keep + chunk;
         end -= chunk) {
      removed |= remove(end - chunk, end);
    }
  }
  return removed;
}

template <class T>
std::vector<T> without_range(const std::vector<T>& items, std::size_t begin,
                             std::size_t end) {
  std::vector<T> out(items.begin(),
                     items.begin() + static_cast<std::ptrdiff_t>(begin));
  out.insert(out.end(), items.begin() + static_cast<std::ptrdiff_t>(end),
             items.end());
  return out;
}

}  // namespace

ProgramShrinkResult shrink_program(const ShrinkProgram& failing,
                                   const std::vector<int>& decisions,
                                   const ProgramFailurePredicate& fails,
                                   int max_runs, int preemption_runs) {
  ProgramShrinkResult result;
  result.program = failing;
  RunResult best;  // the last failing run of result.program
  {
    ReplayStrategy replay(decisions, ReplayMode::kLenient);
    const bool failed = fails(failing, replay, best);
    result.runs = 1;
    if (!failed) {
      result.decisions = decisions;
      result.preemptions = best.preemptions;
      return result;
    }
  }
  result.reproduced = true;

  preemption_runs = std::clamp(preemption_runs, 0, max_runs);
  const int removal_runs = max_runs - preemption_runs;
  // Reruns `candidate` on `schedule`; keeps it when it still fails, with no
  // more scheduling decisions than before (a smaller program whose failing
  // run got longer would show a longer trace).
  auto attempt = [&](ShrinkProgram candidate, std::vector<int> schedule) {
    if (result.runs >= removal_runs) return false;
    ReplayStrategy replay(std::move(schedule), ReplayMode::kLenient);
    RunResult run;
    ++result.runs;
    if (!fails(candidate, replay, run)) return false;
    if (run.decisions.size() > best.decisions.size()) return false;
    result.program = std::move(candidate);
    best = std::move(run);
    return true;
  };
  // Setup or finale operations run outside the schedule, which stays.
  auto shrink_outside = [&](std::vector<std::string> ShrinkProgram::*part) {
    return remove_chunks([&] { return (result.program.*part).size(); }, 0,
                         [&](std::size_t begin, std::size_t end) {
                           ShrinkProgram candidate = result.program;
                           candidate.*part =
                               without_range(result.program.*part, begin, end);
                           return attempt(std::move(candidate), best.decisions);
                         });
  };

  bool changed = true;
  while (changed && result.runs < removal_runs) {
    changed = false;
    // Whole threads, the last first (the threads before it keep their
    // numbers).
    for (std::size_t t = result.program.threads.size(); t-- > 0;) {
      if (result.program.threads.size() <= 1) break;
      ShrinkProgram candidate = result.program;
      candidate.threads = without_range(result.program.threads, t, t + 1);
      changed |= attempt(std::move(candidate),
                         without_thread(best.decisions, static_cast<int>(t)));
    }
    // Operations of each thread, from its end; its last one stays (removing
    // the whole thread was tried above).
    for (std::size_t t = 0; t < result.program.threads.size(); ++t) {
      changed |= remove_chunks(
          [&] { return result.program.threads[t].size(); }, 1,
          [&](std::size_t begin, std::size_t end) {
            ShrinkProgram candidate = result.program;
            candidate.threads[t] =
                without_range(result.program.threads[t], begin, end);
            return attempt(
                std::move(candidate),
                without_operations(best.decisions, best.decision_operations,
                                   static_cast<int>(t), static_cast<int>(begin),
                                   static_cast<int>(end)));
          });
    }
    changed |= shrink_outside(&ShrinkProgram::setup);
    changed |= shrink_outside(&ShrinkProgram::finale);
  }

  // The preemptions again: the smaller program may need fewer.
  result.decisions = best.decisions;
  result.preemptions = best.preemptions;
  if (result.runs < max_runs) {
    const ShrinkResult shrunk = shrink_schedule(
        best.decisions,
        [&](Strategy& strategy) {
          RunResult run;
          return fails(result.program, strategy, run);
        },
        max_runs - result.runs);
    result.runs += shrunk.runs;
    if (shrunk.reproduced) {
      result.decisions = shrunk.decisions;
      result.preemptions = shrunk.preemptions;
    }
  }
  return result;
}

}  // namespace racelab::sched
