// racelab replay FILE: a schedule file run again, a catalog case's or a
// whole program's.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

// Reads and checks a schedule file for `racelab replay`, once, before any
// run: the format, the case it names, and every program line against the
// operations of that case's family. The text is what the run gets.
struct CheckedSchedule {
  std::string text;
  sched::ScheduleFile file;
  const CaseSpec* spec = nullptr;
};

CheckedSchedule check_replay_schedule(const Registry& registry,
                                      const std::string& path,
                                      LoadedSchedule loaded) {
  CheckedSchedule checked;
  checked.text = std::move(loaded.text);
  checked.file = std::move(loaded.file);
  const sched::ScheduleFileLines& lines = loaded.lines;
  const sched::ScheduleFile& file = checked.file;
  auto at = [&](int line) { return absl::StrCat(path, ":", line); };
  check_case(registry, file.subject, file.scenario, at(lines.of_key("subject")),
             at(lines.of_key("scenario")));
  if (file.mode != "controlled") {
    throw UsageError(absl::StrCat(at(lines.of_key("mode")), ": mode '",
                                  file.mode,
                                  "' cannot be replayed (only controlled)"));
  }
  checked.spec = registry.find_case(file.subject, file.scenario);
  if (checked.spec->check_program_line) {
    auto check = [&](const std::string& line, int line_number,
                     const std::string& what) {
      std::string error = checked.spec->check_program_line(line);
      if (!error.empty()) {
        throw sched::ScheduleFileError(
            absl::StrCat(at(line_number), ": ", what, ": ", error));
      }
    };
    if (!file.setup.empty()) check(file.setup, lines.setup, "setup");
    if (!file.finale.empty()) check(file.finale, lines.finale, "finale");
    for (size_t t = 0; t < file.program.size(); ++t) {
      check(file.program[t], lines.program + static_cast<int>(t),
            absl::StrCat("program line ", t));
    }
  }
  check_program_digest(file, lines, path);
  return checked;
}

// racelab replay
struct ReplayFlags {
  std::string path;
  OracleSet oracles = OracleSet::selectable();
  bool stacks = false;  // a whole program's: the stack at every decision
  bool debug = false;   // a whole program's: under gdb, stopped at the end
};

int handle_replay(const Registry& registry, const ReplayFlags& flags) {
  // Read once: the path may be a pipe.
  LoadedSchedule loaded = load_schedule(flags.path, read_schedule_source);
  if (loaded.file.mode == "program") {
    ProgramExploreOptions options;
    program_schedule_options(flags.path, loaded.file, options);
    options.stacks = flags.stacks;
    if (flags.debug) {
      std::cout.flush();
      debug_program(std::move(options));
    }
    return explore_and_print(options);
  }
  if (flags.stacks || flags.debug) {
    throw UsageError(absl::StrCat(
        flags.stacks ? "--stacks" : "--debug", ": ", flags.path,
        " is a schedule of the catalog (mode '", loaded.file.mode,
        "'); --stacks and --debug replay a whole program's schedule"));
  }
  CheckedSchedule checked =
      check_replay_schedule(registry, flags.path, std::move(loaded));
  const sched::ScheduleFile& file = checked.file;
  RunOptions run_options;
  run_options.request.oracles = flags.oracles;
  run_options.request.mode = Mode::kControlled;
  run_options.request.seed = file.seed;
  run_options.runs = 1;
  for (const auto& [key, value] : file.extra) {
    if (key == "threads") {
      std::optional<sched::Substrate> substrate = sched::parse_substrate(value);
      if (!substrate) {
        throw UsageError(absl::StrCat(flags.path, ": threads '", value,
                                      "' is not fibers or threads"));
      }
      run_options.request.threads = *substrate;
    } else if (key == "run_timeout_ms") {
      std::optional<std::uint64_t> ms = parse_whole_number(value);
      if (!ms || *ms < 100 || *ms > 3600000) {
        throw UsageError(
            absl::StrCat(flags.path, ": run_timeout_ms '", value,
                         "' is not a whole number from 100 to 3600000"));
      }
      run_options.run_timeout_ms = static_cast<int>(*ms);
    }
  }
  run_options.replay_schedule = std::move(checked.text);
  CaseResult result = run_case(
      *checked.spec,
      registry.find_expectation(file.subject, file.scenario, Mode::kControlled),
      run_options);
  std::cout << "replay of " << flags.path << ": " << file.subject << " x "
            << file.scenario << ", " << file.decisions.size() << " decisions\n";
  if (!result.schedule.trace.rows.empty())
    std::cout << sched::format_trace(result.schedule.trace);
  print_case(result, std::cout);
  return result.mismatch.empty() ? kExitOk : kExitMismatch;
}

}  // namespace

Subcommand add_replay_command(CLI::App& app, const Registry& registry) {
  auto flags = std::make_shared<ReplayFlags>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "rerun a saved schedule and print its trace");
  cmd->add_option("file", flags->path, "a schedule file")->required();
  cmd->add_flag("--stacks", flags->stacks,
                "a whole program's schedule: print the running thread's "
                "full call stack at every scheduling decision");
  cmd->add_flag("--debug", flags->debug,
                "a whole program's schedule: run the program under gdb on "
                "the schedule, stopped at its last decision (breakpoint "
                "racelab_failing_step)")
      ->excludes("--stacks");
  add_oracles_option(cmd, flags->oracles);
  return {cmd, [&registry, flags] { return handle_replay(registry, *flags); }};
}

}  // namespace racelab::cli_internal
