// racelab::explore and racelab::replay: the engine's schedule search
// (controlled_internal::explore) runs in a forked child (isolation.h), which
// sends back its RunObservation, so the caller survives whatever the body
// does.
#include "racelab/explore.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/isolation.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/observation_json.h"
#include "racelab/process_output.h"
#include "racelab/saved_schedule.h"

namespace racelab {
namespace {

// The search, in the child: the engine's one search (controlled_internal::
// explore) over runs of `body`, each a schedule of the controlled scheduler.
RunObservation search(const std::function<void()>& body,
                      const ExploreOptions& options,
                      const RunRequest& request) {
  sched::SchedulerOptions scheduler_options;
  scheduler_options.max_steps = options.max_steps;
  scheduler_options.substrate = sched::Substrate::kOsThreads;
  scheduler_options.spin_bound = options.spin_bound;
  scheduler_options.memory_model = options.memory_model;
  sched::ControlledScheduler scheduler(scheduler_options);
  isolation::observe_decisions(scheduler);
  take_tsan_findings();  // whatever the parent saw before the fork
  const controlled_internal::ScheduleRunner runner =
      [&](std::uint64_t, const std::vector<std::string>*,
          sched::Strategy& strategy) {
        isolation::begin_schedule(-1, nullptr);
        sched::RunResult run = scheduler.run_program(body, strategy);
        std::vector<Finding> findings;
        controlled_internal::add_scheduler_findings(run, findings);
        std::vector<Finding> tsan = take_tsan_findings();
        if (options.tsan) {
          findings.insert(findings.end(), tsan.begin(), tsan.end());
        }
        // Every scheduling point of a body is inside the code under test.
        run.inner_points = static_cast<long>(run.decisions.size());
        return controlled_internal::observe_schedule(std::move(run),
                                                     std::move(findings), 0);
      };
  const controlled_internal::ProgramEncoder no_program = [](std::uint64_t) {
    return std::vector<std::string>{};
  };
  try {
    return controlled_internal::explore(runner, no_program, request, false);
  } catch (const sched::ScheduleError& e) {
    // A replay whose decision names a thread that is not enabled.
    RunObservation failed;
    failed.replay_diverged = true;
    failed.message = e.what();
    return failed;
  }
}

std::string schedule_path(const ExploreOptions& options) {
  std::string dir = options.schedule_dir;
  if (dir.empty()) {
    dir = private_schedule_folder();
    if (dir.empty()) return "";  // nowhere safe: nothing is saved
  }
  return schedule_file_in(dir, {options.name});
}

std::string save(const ExploreOptions& options,
                 const std::vector<int>& decisions) {
  sched::ScheduleFile file =
      program_schedule_file(options.name.empty() ? "explore" : options.name,
                            options.strategy, options.seed, decisions);
  file.extra = {{"depth", std::to_string(options.depth)},
                {"preemptions", std::to_string(options.preemptions)}};
  if (options.memory_model) file.extra.emplace_back("memory_model", "on");
  const std::string path = schedule_path(options);
  if (path.empty()) {
    std::fprintf(stderr,
                 "racelab::explore: cannot save the schedule: racelab's "
                 "per-user folder is unusable (set schedule_dir)\n");
    return "";
  }
  try {
    write_schedule_bytes(path, sched::write_schedule(file));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "racelab::explore: cannot save the schedule: %s\n",
                 e.what());
    return "";
  }
  return path;
}

std::string compose_message(const ExploreResult& result,
                            const ExploreOptions& options, bool replaying) {
  const std::string how =
      replaying ? "replay"
                : absl::StrCat(options.strategy,
                               options.strategy == "dfs"
                                   ? absl::StrCat(", ", options.preemptions,
                                                  " preemptions")
                                   : absl::StrCat(", seed ", options.seed));
  std::string text;
  std::string notes;
  for (const std::string& warning : result.warnings) {
    absl::StrAppend(&notes, "note: ", warning, "\n");
  }
  if (!result.found()) {
    if (result.exhausted) {
      return absl::StrCat(
          "racelab: clean, exhaustively: all ", result.schedules,
          " schedules within the preemption bound (", how, ")\n");
    }
    return absl::StrCat(
        result.length_cut > 0 ? "racelab: inconclusive, " : "racelab: ",
        "clean over ", result.schedules, " schedules (", how, ")\n", notes);
  }
  absl::StrAppend(&text, "racelab: found at schedule ",
                  result.first_failing + 1, " of ", result.schedules, " (", how,
                  "):\n");
  for (const Finding& f : result.findings) {
    absl::StrAppend(&text, "  ", to_string(f.kind), ": ", f.summary, "\n");
    if (!f.detail.empty()) {
      std::string detail = f.detail;
      if (detail.back() != '\n') detail += '\n';
      absl::StrAppend(&text, detail);
    }
  }
  if (!result.trace.empty()) absl::StrAppend(&text, "trace:\n", result.trace);
  if (!result.schedule_file.empty()) {
    absl::StrAppend(&text, "schedule saved: ", result.schedule_file,
                    " (racelab::replay(body, \"", result.schedule_file,
                    "\") reruns it)\n");
  }
  return text + notes;
}

ExploreResult run_isolated(const std::function<void()>& body,
                           const ExploreOptions& options,
                           const RunRequest& request, bool replaying) {
  isolation::ChildOptions child_options;
  child_options.hang_seconds = options.hang_seconds;
  child_options.what = "racelab::explore";
  const isolation::ChildOutcome child = isolation::run_in_child(
      [&] { return encode_observation(search(body, options, request)); },
      child_options);

  ExploreResult result;
  if (child.end == isolation::ChildEnd::kResult) {
    RunObservation found;
    try {
      found = decode_observation(child.result);
    } catch (const std::runtime_error& e) {
      // The body scribbled over the child's memory: a crash, never a pass.
      found.findings.push_back({FindingKind::kCrash,
                                Oracle::kCrash,
                                e.what(),
                                tail(child.child_stderr, 4000),
                                std::nullopt,
                                {}});
    }
    if (found.replay_diverged && found.findings.empty()) {
      throw InputError(absl::StrCat(
          "racelab: the schedule cannot be followed: ", found.message));
    }
    result.findings = std::move(found.findings);
    result.schedules = replaying ? 1 : found.schedules;
    result.first_failing = found.first_failing;
    result.exhausted = found.exhaustive;
    result.unmodelled_blocks = found.unmodelled_blocks;
    if (!found.first_block.empty()) {
      result.block_notes.push_back(found.first_block);
    }
    result.decisions = std::move(found.schedule.decisions);
    result.warnings = std::move(found.warnings);
    result.length_cut = found.length_cut;
    if (!found.schedule.trace.rows.empty()) {
      result.trace = sched::format_trace(found.schedule.trace);
    }
  } else {
    // The schedule in flight crashed or hung: its decisions so far are what
    // reproduces it.
    result.decisions = child.decisions;
    result.schedules = std::max(child.schedule, 0) + 1;
    result.first_failing = std::max(child.schedule, 0);
    const bool hung = child.end == isolation::ChildEnd::kHang;
    Finding finding{hung ? FindingKind::kTimeout : FindingKind::kCrash,
                    hung ? Oracle::kTimeout : Oracle::kCrash,
                    child.summary("the program", options.hang_seconds),
                    tail(child.child_stderr, 4000),
                    std::nullopt,
                    {}};
    result.findings.push_back(std::move(finding));
  }
  if (result.found() && !replaying) {
    result.schedule_file = save(options, result.decisions);
  }
  result.message = compose_message(result, options, replaying);
  return result;
}

RunRequest request_for(const ExploreOptions& options) {
  RunRequest request = controlled_request_from(options);
  request.threads = sched::Substrate::kOsThreads;
  // TSan reports a racing pair once per process: the shrinking reruns may
  // not see it again.
  request.keep_first_kinds = true;
  return request;
}

void validate(const ExploreOptions& options) {
  if (options.budget < 1) {
    throw std::invalid_argument("racelab::explore: budget must be at least 1");
  }
  if (options.max_steps < 1) {
    throw std::invalid_argument(
        "racelab::explore: max_steps must be at least 1");
  }
  if (options.hang_seconds < 1) {
    throw std::invalid_argument(
        "racelab::explore: hang_seconds must be at least 1");
  }
  if (options.strategy == "replay") {
    throw std::invalid_argument(
        "racelab::explore: strategy must be pct, random or dfs (use "
        "racelab::replay to rerun a saved schedule)");
  }
  // Throws std::invalid_argument naming an unknown strategy or a bad value.
  sched::make_strategy(options.strategy, options.seed, options.depth,
                       options.preemptions);
}

}  // namespace

ExploreResult explore(const std::function<void()>& body,
                      const ExploreOptions& options) {
  validate(options);
  return run_isolated(body, options, request_for(options),
                      /*replaying=*/false);
}

ExploreResult replay(const std::function<void()>& body,
                     const std::string& schedule_file,
                     const ExploreOptions& options) {
  const LoadedSchedule loaded = load_schedule(schedule_file);
  if (loaded.file.mode != kProgramScheduleMode) {
    throw InputError(absl::StrCat(
        schedule_file, ": mode is '", loaded.file.mode,
        "', not 'program': a schedule of a catalog case (racelab replay "
        "reruns those)"));
  }
  RunRequest request = request_for(options);
  request.replay = true;
  request.replay_decisions = loaded.file.decisions;
  return run_isolated(body, options, request, /*replaying=*/true);
}

}  // namespace racelab
