// The schedule search of controlled mode, shared by every family.
#include "racelab/controlled_runner.h"

#include "absl/strings/str_cat.h"
#include "racelab/runner.h"
#include "racelab/sched/shrink.h"
#include "racelab/sched/trace.h"

namespace racelab::controlled_internal {
namespace {

std::atomic<std::uint64_t> g_clock{0};

RecordedSchedule record(std::vector<std::string> program,
                        const sched::RunResult& run) {
  return {std::move(program), run.decisions, run.preemptions};
}

void record_trace(const sched::RunResult& run, RunObservation& obs) {
  obs.trace_threads = run.trace.thread_count;
  obs.trace.clear();
  for (const sched::TraceRow& row : run.trace.rows) {
    obs.trace.push_back({row.step, row.thread,
                         std::string(sched::to_string(row.kind)), row.text});
  }
  obs.trace_table = sched::format_trace(run.trace);
}

}  // namespace

std::uint64_t next_tick() {
  return g_clock.fetch_add(1, std::memory_order_relaxed) + 1;
}
void reset_clock() { g_clock.store(0, std::memory_order_relaxed); }

void abandon(std::shared_ptr<void> store) {
  static auto* abandoned = new std::vector<std::shared_ptr<void>>;
  abandoned->push_back(std::move(store));
}

void add_scheduler_findings(const sched::RunResult& run,
                            std::vector<Finding>& findings) {
  using Status = sched::RunResult::Status;
  if (run.status == Status::kDeadlock) {
    std::string first =
        run.deadlock_report.substr(0, run.deadlock_report.find('\n'));
    findings.push_back({FindingKind::kDeadlock,
                        "deadlock",
                        "every thread is blocked: " + first,
                        run.deadlock_report,
                        std::nullopt,
                        {}});
  } else if (run.status == Status::kStepLimit) {
    findings.push_back(
        {FindingKind::kTimeout,
         "timeout",
         absl::StrCat("the schedule did not finish within ",
                      run.decisions.size(),
                      " scheduling decisions: probable livelock"),
         {},
         std::nullopt,
         {}});
  }
  for (const std::string& error : run.thread_errors) {
    findings.push_back(
        {FindingKind::kCrash, "crash", error, {}, std::nullopt, {}});
  }
}

RunObservation explore(const ScheduleRunner& run_schedule,
                       const ProgramEncoder& encode,
                       const RunRequest& request) {
  RunObservation obs;
  if (!request.replay_program.empty()) {
    sched::ReplayStrategy replay(request.replay_decisions,
                                 sched::ReplayMode::kStrict);
    ScheduleOutcome outcome =
        run_schedule(request.seed, &request.replay_program, replay);
    obs.schedules = 1;
    obs.operations = outcome.operations;
    obs.findings = std::move(outcome.findings);
    if (!obs.findings.empty()) obs.first_failing = 0;
    obs.schedule = record(request.replay_program, outcome.run);
    record_trace(outcome.run, obs);
    return obs;
  }

  std::unique_ptr<sched::Strategy> strategy = sched::make_strategy(
      request.strategy, request.seed, request.depth, request.preemptions);
  for (int i = 0; i < request.budget; ++i) {
    heartbeat();
    const std::uint64_t program_seed =
        request.seed + static_cast<std::uint64_t>(i);
    ScheduleOutcome outcome = run_schedule(program_seed, nullptr, *strategy);
    ++obs.schedules;
    obs.operations += outcome.operations;
    if (outcome.findings.empty()) {
      const bool last = i + 1 == request.budget || !outcome.run.more_schedules;
      if (last) {  // keep the last clean schedule, for --save-schedule
        obs.schedule = record(encode(program_seed), outcome.run);
        break;  // the budget is spent, or an exhaustive search is done
      }
      continue;
    }
    obs.first_failing = i;
    std::vector<int> decisions = outcome.run.decisions;
    if (request.shrink) {
      sched::ShrinkResult shrunk = sched::shrink_schedule(
          decisions,
          [&](sched::Strategy& replay) {
            heartbeat();
            return !run_schedule(program_seed, nullptr, replay)
                        .findings.empty();
          },
          /*max_runs=*/200);
      if (shrunk.reproduced) decisions = shrunk.decisions;
    }
    // Replay the (shrunk) schedule once more: its trace and findings are the
    // ones reported, so what the user replays is exactly what they read.
    sched::ReplayStrategy replay(decisions, sched::ReplayMode::kLenient);
    ScheduleOutcome final_run = run_schedule(program_seed, nullptr, replay);
    if (final_run.findings.empty()) {
      final_run = std::move(outcome);  // not reproducible: report the original
    }
    obs.findings = std::move(final_run.findings);
    obs.schedule = record(encode(program_seed), final_run.run);
    record_trace(final_run.run, obs);
    return obs;
  }
  return obs;
}

}  // namespace racelab::controlled_internal
