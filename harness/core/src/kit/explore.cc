// racelab::explore and racelab::replay: the schedule search runs in a forked
// child that reports through a shared memory channel, so the caller survives
// whatever the body does.
#include "racelab/explore.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/controlled_runner.h"
#include "racelab/input_error.h"
#include "racelab/isolation.h"
#include "racelab/process_output.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/saved_schedule.h"
#include "racelab/sched/schedule_file.h"
#include "racelab/sched/scheduler.h"
#include "racelab/sched/strategy.h"
#include "racelab/sched/trace.h"

namespace racelab {
namespace {

// The result travels as lines "<key> <value>", values with '\\' and '\n'
// escaped; kinds and oracles by their name tables.
std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[i + 1] == 'n' ? '\n' : text[i + 1];
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

struct ChildOutcome {
  std::vector<Finding> findings;
  int schedules = 0;
  int first_failing = -1;
  bool exhausted = false;
  std::vector<int> decisions;
  std::string trace;
  std::string error;  // the strategy could not go on (a replay that diverged)
  int blocks = 0;     // unmodelled blocks over every schedule
  std::vector<std::string> block_notes;  // the first few
};

std::string serialize(const ChildOutcome& outcome) {
  std::string text =
      absl::StrCat("schedules ", outcome.schedules, "\nfirst_failing ",
                   outcome.first_failing, "\nexhausted ",
                   outcome.exhausted ? 1 : 0, "\ndecisions");
  for (int d : outcome.decisions) absl::StrAppend(&text, " ", d);
  text += "\n";
  for (const Finding& f : outcome.findings) {
    absl::StrAppend(&text, "finding ", to_string(f.kind), " ",
                    to_string(f.oracle), " ", escape(f.summary), "\n");
    absl::StrAppend(&text, "detail ", escape(f.detail), "\n");
  }
  absl::StrAppend(&text, "trace ", escape(outcome.trace), "\n");
  absl::StrAppend(&text, "blocks ", outcome.blocks, "\n");
  for (const std::string& note : outcome.block_notes) {
    absl::StrAppend(&text, "block ", escape(note), "\n");
  }
  if (!outcome.error.empty()) {
    absl::StrAppend(&text, "error ", escape(outcome.error), "\n");
  }
  return text;
}

ChildOutcome deserialize(std::string_view text) {
  ChildOutcome outcome;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
    const std::size_t space = line.find(' ');
    const std::string_view key = line.substr(0, space);
    const std::string_view value =
        space == std::string_view::npos ? "" : line.substr(space + 1);
    if (key == "schedules") {
      outcome.schedules = std::atoi(std::string(value).c_str());
    } else if (key == "first_failing") {
      outcome.first_failing = std::atoi(std::string(value).c_str());
    } else if (key == "exhausted") {
      outcome.exhausted = value == "1";
    } else if (key == "decisions") {
      std::string rest(value);
      char* cursor = rest.data();
      while (*cursor != '\0') {
        char* next;
        const long d = std::strtol(cursor, &next, 10);
        if (next == cursor) break;
        outcome.decisions.push_back(static_cast<int>(d));
        cursor = next;
      }
    } else if (key == "finding") {
      const std::size_t a = value.find(' ');
      const std::size_t b = value.find(' ', a + 1);
      const auto kind = parse_finding_kind(value.substr(0, a));
      const auto oracle = parse_oracle(value.substr(a + 1, b - a - 1));
      if (!kind || !oracle) continue;
      outcome.findings.push_back({*kind,
                                  *oracle,
                                  unescape(value.substr(b + 1)),
                                  "",
                                  std::nullopt,
                                  {}});
    } else if (key == "detail" && !outcome.findings.empty()) {
      outcome.findings.back().detail = unescape(value);
    } else if (key == "trace") {
      outcome.trace = unescape(value);
    } else if (key == "blocks") {
      outcome.blocks = std::atoi(std::string(value).c_str());
    } else if (key == "block") {
      outcome.block_notes.push_back(unescape(value));
    } else if (key == "error") {
      outcome.error = unescape(value);
    }
  }
  return outcome;
}

// The search, in the child.
ChildOutcome search(const std::function<void()>& body,
                    const ExploreOptions& options, sched::Strategy& strategy) {
  sched::SchedulerOptions scheduler_options;
  scheduler_options.max_steps = options.max_steps;
  scheduler_options.substrate = sched::Substrate::kOsThreads;
  scheduler_options.spin_bound = options.spin_bound;
  sched::ControlledScheduler scheduler(scheduler_options);
  isolation::observe_decisions(scheduler);
  ChildOutcome outcome;
  take_tsan_findings();  // whatever the parent saw before the fork
  for (int i = 0; i < options.budget; ++i) {
    isolation::begin_schedule(i, nullptr);
    sched::RunResult run;
    try {
      run = scheduler.run_program(body, strategy);
    } catch (const std::exception& e) {
      outcome.error = e.what();
      break;
    }
    std::vector<Finding> findings;
    controlled_internal::add_scheduler_findings(run, findings);
    std::vector<Finding> tsan = take_tsan_findings();
    if (options.tsan) {
      findings.insert(findings.end(), tsan.begin(), tsan.end());
    }
    outcome.schedules = i + 1;
    for (const sched::UnmodelledBlock& block : run.unmodelled_blocks) {
      ++outcome.blocks;
      if (outcome.block_notes.size() < 16) {
        outcome.block_notes.push_back(absl::StrCat(
            "schedule ", i + 1, ", step ", block.step, ": ", block.where));
      }
    }
    outcome.decisions = run.decisions;
    outcome.trace = sched::format_trace(run.trace);
    if (!findings.empty()) {
      outcome.findings = std::move(findings);
      outcome.first_failing = i;
      break;
    }
    if (!run.more_schedules) {
      // A run that saw an unmodelled block followed the kernel's timing.
      outcome.exhausted =
          strategy.searches_one_program() && outcome.blocks == 0;
      break;
    }
  }
  return outcome;
}

std::string schedule_path(const ExploreOptions& options) {
  std::string dir = options.schedule_dir;
  if (dir.empty()) {
    dir = private_schedule_folder();
    if (dir.empty()) return "";  // nowhere safe: nothing is saved
  }
  std::string name = options.name;
  for (char& c : name) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                      c == '_' || c == '.';
    if (!safe) c = '_';
  }
  return absl::StrCat(dir, "/racelab-", name, ".schedule");
}

std::string save(const ExploreOptions& options,
                 const std::vector<int>& decisions) {
  sched::ScheduleFile file =
      program_schedule_file(options.name.empty() ? "explore" : options.name,
                            options.strategy, options.seed, decisions);
  file.extra = {{"depth", std::to_string(options.depth)},
                {"preemptions", std::to_string(options.preemptions)}};
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
  const std::string notes = sched::describe_unmodelled_blocks(
      result.unmodelled_blocks, result.block_notes);
  if (!result.found()) {
    if (result.exhausted) {
      return absl::StrCat(
          "racelab: clean, exhaustively: all ", result.schedules,
          " schedules within the preemption bound (", how, ")\n");
    }
    return absl::StrCat("racelab: clean over ", result.schedules,
                        " schedules (", how, ")\n", notes);
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

ExploreResult run_isolated(
    const std::function<void()>& body, const ExploreOptions& options,
    const std::function<std::unique_ptr<sched::Strategy>()>& make,
    bool replaying) {
  isolation::ChildOptions child_options;
  child_options.hang_seconds = options.hang_seconds;
  child_options.what = "racelab::explore";
  const isolation::ChildOutcome child = isolation::run_in_child(
      [&] {
        std::unique_ptr<sched::Strategy> strategy = make();
        return serialize(search(body, options, *strategy));
      },
      child_options);

  ExploreResult result;
  if (child.end == isolation::ChildEnd::kResult) {
    ChildOutcome outcome = deserialize(child.result);
    if (!outcome.error.empty()) {
      throw InputError(absl::StrCat(
          "racelab: the schedule cannot be followed: ", outcome.error));
    }
    result.findings = std::move(outcome.findings);
    result.schedules = outcome.schedules;
    result.first_failing = outcome.first_failing;
    result.exhausted = outcome.exhausted;
    result.unmodelled_blocks = outcome.blocks;
    result.block_notes = std::move(outcome.block_notes);
    result.decisions = std::move(outcome.decisions);
    result.trace = std::move(outcome.trace);
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
  return run_isolated(
      body, options,
      [&] {
        return sched::make_strategy(options.strategy, options.seed,
                                    options.depth, options.preemptions);
      },
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
  ExploreOptions once = options;
  once.budget = 1;
  const std::vector<int> decisions = loaded.file.decisions;
  return run_isolated(
      body, once,
      [&] {
        return std::make_unique<sched::ReplayStrategy>(
            decisions, sched::ReplayMode::kStrict);
      },
      /*replaying=*/true);
}

}  // namespace racelab
