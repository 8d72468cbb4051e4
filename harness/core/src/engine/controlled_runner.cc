// The schedule search of controlled mode, shared by every family.
#include "racelab/controlled_runner.h"

#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/input_error.h"
#include "racelab/progress.h"
#include "racelab/sched/shrink.h"
#include "racelab/sched/trace.h"
#include "racelab/session_state.h"

namespace racelab::controlled_internal {
namespace {

// The clock is the current session's (session_state.h).
std::atomic<std::uint64_t>& clock() {
  return session_internal::current().controlled.clock;
}

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

// What a rerun must report to fail "the same way": each kind of finding with
// the oracle that reported it.
using FailureSignature = std::set<std::pair<FindingKind, Oracle>>;

FailureSignature signature_of(const std::vector<Finding>& findings) {
  FailureSignature signature;
  for (const Finding& f : findings) signature.emplace(f.kind, f.oracle);
  return signature;
}

sched::ShrinkProgram to_shrink_program(const std::vector<std::string>& lines) {
  sched::ShrinkProgram program;
  program.setup = split_program_line(lines.front());
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    program.threads.push_back(split_program_line(lines[i]));
  }
  program.finale = split_program_line(lines.back());
  return program;
}

std::vector<std::string> to_lines(const sched::ShrinkProgram& program) {
  std::vector<std::string> lines = {join_program_line(program.setup)};
  for (const auto& ops : program.threads) {
    lines.push_back(join_program_line(ops));
  }
  lines.push_back(join_program_line(program.finale));
  return lines;
}

}  // namespace

std::uint64_t next_tick() {
  return clock().fetch_add(1, std::memory_order_relaxed) + 1;
}
void reset_clock() { clock().store(0, std::memory_order_relaxed); }

void abandon(std::shared_ptr<void> store) {
  // Process-wide on purpose: an abandoned store's stuck threads may still
  // touch it, so it lives until the process exits, past its session.
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
                        Oracle::kDeadlock,
                        "every thread is blocked: " + first,
                        run.deadlock_report,
                        std::nullopt,
                        {}});
  } else if (run.status == Status::kStepLimit) {
    findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         absl::StrCat("the schedule did not finish within ",
                      run.decisions.size(),
                      " scheduling decisions: probable livelock"),
         {},
         std::nullopt,
         {}});
  }
  for (const std::string& error : run.thread_errors) {
    findings.push_back(
        {FindingKind::kCrash, Oracle::kCrash, error, {}, std::nullopt, {}});
  }
}

MinimalFailure minimize_failure(const ProgramRunner& run,
                                std::vector<std::string> program,
                                ScheduleOutcome failing, bool shrink) {
  MinimalFailure result;
  std::vector<std::string> lines = program;
  std::vector<int> decisions = failing.run.decisions;
  if (shrink && lines.size() >= 3) {
    const sched::ShrinkResult shrunk = sched::shrink_schedule(
        decisions,
        [&](sched::Strategy& replay) {
          return !run(lines, replay).findings.empty();
        },
        kPreemptionShrinkRuns);
    result.reruns += shrunk.runs;
    if (shrunk.reproduced) {
      decisions = shrunk.decisions;
      // The program shrink's first rerun (the shrunk schedule on the whole
      // program) fixes the failure every later rerun must show.
      std::optional<FailureSignature> reference;
      int runs = 0;
      try {
        const sched::ProgramShrinkResult smaller = sched::shrink_program(
            to_shrink_program(lines), decisions,
            [&](const sched::ShrinkProgram& candidate,
                sched::Strategy& strategy, sched::RunResult& rerun) {
              ++runs;
              ScheduleOutcome outcome = run(to_lines(candidate), strategy);
              rerun = std::move(outcome.run);
              FailureSignature signature = signature_of(outcome.findings);
              if (!reference) reference = signature;
              return !signature.empty() && signature == *reference;
            },
            kProgramShrinkRuns, kScheduleReshrinkRuns);
        if (smaller.reproduced) {
          lines = to_lines(smaller.program);
          decisions = smaller.decisions;
        }
      } catch (const InputError&) {
        // A smaller program's text does not parse back (a family whose
        // describe() and parse() disagree): keep the program as found.
      }
      result.reruns += runs;
    }
  }
  sched::ReplayStrategy replay(decisions, sched::ReplayMode::kLenient);
  result.outcome = run(lines, replay);
  ++result.reruns;
  if (result.outcome.findings.empty()) {
    // Not reproducible: report the original.
    result.outcome = std::move(failing);
    lines = std::move(program);
  }
  result.program = std::move(lines);
  return result;
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
    note_progress();
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
    // The program as found reruns from its seed, as the search ran it.
    const std::vector<std::string> found = encode(program_seed);
    MinimalFailure minimal = minimize_failure(
        [&](const std::vector<std::string>& program, sched::Strategy& rerun) {
          note_progress();
          return run_schedule(program_seed,
                              program == found ? nullptr : &program, rerun);
        },
        found, std::move(outcome), request.shrink);
    obs.findings = std::move(minimal.outcome.findings);
    obs.schedule = record(std::move(minimal.program), minimal.outcome.run);
    record_trace(minimal.outcome.run, obs);
    return obs;
  }
  return obs;
}

}  // namespace racelab::controlled_internal
