// The racelab command line (see cli.h): run_cli, which picks the subcommand
// and reports its errors as one line, and the option parsing the
// subcommands share. Each subcommand is in its own file (cli_commands.h).
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

// Whole numbers on the command line, read as text and converted here:
// CLI11's own conversion saturates (--seed 99999999999999999999 ran as the
// largest seed), wraps -1 and takes hexadecimal. Only plain decimal digits in
// [low, high] are accepted; anything else is a one-line usage error.
std::optional<std::uint64_t> parse_whole_number(const std::string& text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::uint64_t value = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

Shard parse_shard(const std::string& text) {
  auto number = [&](std::string_view part, int& value) {
    const auto [end, error] =
        std::from_chars(part.data(), part.data() + part.size(), value);
    return error == std::errc() && end == part.data() + part.size() &&
           !part.empty();
  };
  const std::size_t slash = text.find('/');
  Shard shard;
  if (slash == std::string::npos ||
      !number(std::string_view(text).substr(0, slash), shard.index) ||
      !number(std::string_view(text).substr(slash + 1), shard.count) ||
      shard.count < 1 || shard.count > 10000 || shard.index < 1 ||
      shard.index > shard.count) {
    throw CLI::ValidationError(
        "--shard", absl::StrCat("'", text,
                                "' is not K/N with 1 <= K <= N <= 10000 (for "
                                "example 2/3: the second of three shards)"));
  }
  return shard;
}

Mode parse_mode(const std::string& name) {
  if (name == "stress") return Mode::kStress;
  if (name == "controlled") return Mode::kControlled;
  throw UsageError(absl::StrCat("--mode: unknown mode '", name,
                                "' (known: stress, controlled)"));
}

// `subject_where` and `scenario_where` say where the names came from in
// messages: the flags, or a schedule file's lines.
void check_case(const Registry& registry, const std::string& subject,
                const std::string& scenario, const std::string& subject_where,
                const std::string& scenario_where) {
  if (registry.find_subject(subject) == nullptr) {
    throw UsageError(absl::StrCat(subject_where, ": unknown subject '", subject,
                                  "' (racelab list shows the subjects)"));
  }
  const CatalogEntry* sc = registry.find_scenario(scenario);
  if (sc == nullptr) {
    throw UsageError(absl::StrCat(scenario_where, ": unknown scenario '",
                                  scenario,
                                  "' (racelab list shows the scenarios)"));
  }
  if (registry.find_case(subject, scenario) == nullptr) {
    throw UsageError(absl::StrCat(scenario_where, ": '", scenario, "' is a ",
                                  sc->family,
                                  " scenario and does not apply to ", subject));
  }
}

// A flag that does not apply to the mode or strategy that runs is an error,
// never silently ignored. `stress` and `controlled`: which modes run (both in
// `gate --mode all`, where each flag applies to its own half).
void check_flags_apply(const CLI::App& cmd, bool stress, bool controlled,
                       const std::string& strategy) {
  auto given = [&](const char* flag) {
    return cmd.get_option_no_throw(flag) != nullptr && cmd.count(flag) > 0;
  };
  if (!controlled) {
    for (const char* flag :
         {"--strategy", "--depth", "--preemptions", "--no-preemption-bound",
          "--budget", "--no-shrink", "--controlled-runs", "--memory-model"}) {
      if (given(flag)) {
        throw UsageError(absl::StrCat(
            flag, ": applies to controlled mode only, not to --mode stress"));
      }
    }
  } else {
    if (given("--depth") && strategy != "pct") {
      throw UsageError(absl::StrCat(
          "--depth: applies to --strategy pct only, not to ", strategy));
    }
    if (given("--no-preemption-bound") && strategy != "dfs") {
      throw UsageError(absl::StrCat(
          "--no-preemption-bound: applies to --strategy dfs only, not to ",
          strategy));
    }
    if (given("--preemptions") && strategy != "dfs" &&
        strategy != "plain-dfs") {
      throw UsageError(
          absl::StrCat("--preemptions: applies to --strategy dfs only (or "
                       "plain-dfs), not to ",
                       strategy));
    }
  }
  if (!stress) {
    for (const char* flag : {"--jitter", "--pause-us"}) {
      if (given(flag)) {
        throw UsageError(absl::StrCat(
            flag, ": applies to stress mode only, not to --mode controlled"));
      }
    }
  }
}

void print_case(const CaseResult& c, std::ostream& out) {
  out << c.subject << " x " << c.scenario << " (" << to_string(c.mode)
      << "): " << c.runs_with_finding << " of " << c.runs
      << " runs with a finding; observed " << c.observed() << ", expected "
      << c.expected << "\n";
  for (const auto& [outcome, n] : c.histogram) {
    out << absl::StrFormat("  %4d  %s\n", n, to_string(outcome));
  }
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < c.findings.size() && i < kShown; ++i) {
    const AggregatedFinding& a = c.findings[i];
    out << "  [" << to_string(a.finding.kind) << ", " << a.runs << " runs] "
        << a.finding.summary << "\n";
  }
  if (c.findings.size() > kShown) {
    out << "  ... and " << c.findings.size() - kShown
        << " more distinct findings\n";
  }
  for (const RetriedRun& run : c.retried) out << "  " << describe(run) << "\n";
  if (c.mode == Mode::kControlled) {
    out << "  schedules tried: " << c.schedules;
    if (c.first_failing >= 0)
      out << ", first failing: schedule " << c.first_failing + 1;
    out << "\n";
    if (c.verified) {
      out << "  verified: all " << c.schedules
          << " schedules that matter of this program"
          << (c.preemption_bound >= 0
                  ? absl::StrCat(", within ", c.preemption_bound,
                                 " preemptions")
                  : std::string())
          << " (dfs, partial-order reduction)\n";
    }
  }
  if (!c.schedule.trace.rows.empty() && !c.findings.empty()) {
    out << "  minimal failing schedule (" << c.schedule.preemptions
        << " preemptions, " << c.schedule.decisions.size() << " decisions):\n"
        << sched::format_trace(c.schedule.trace);
  }
  for (const AggregatedFinding& a : c.findings) {
    if (a.finding.oracle == Oracle::kLinearizability ||
        a.finding.oracle == Oracle::kDeadlock) {
      out << "  " << a.finding.detail << "\n";
    }
  }
  if (!c.mismatch.empty()) out << "MISMATCH: " << c.mismatch << "\n";
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

void add_oracles_option(CLI::App* cmd, OracleSet& oracles) {
  cmd->add_option_function<std::string>(
      "--oracles",
      [&oracles](const std::string& list) {
        try {
          oracles = parse_oracle_set(list);
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--oracles", e.what());
        }
      },
      "comma list of tsan, invariants, linearizability (default all)");
}

// The flags every command that runs cases shares.
void add_run_options(CLI::App* cmd, RunOptions& run) {
  RunRequest& r = run.request;
  add_number_option(cmd, "--runs", run.runs, 1, 1000000, "runs per case");
  add_number_option(cmd, "--seed", r.seed, std::uint64_t{0},
                    std::numeric_limits<std::uint64_t>::max(),
                    "seed of the first run");
  cmd->add_flag("--jitter", r.jitter,
                "stress mode: random yields and sleeps at operation "
                "boundaries");
  add_number_option(cmd, "--pause-us", r.pause_us, 0, 1000000,
                    "stress mode: a slow reader's pause, in microseconds");
  add_number_option(
      cmd, "--run-timeout-ms", run.run_timeout_ms, 100, 3600000,
      "how long a run may make no progress before it counts as hung; "
      "default 5000 stress, 30000 controlled");
  add_oracles_option(cmd, r.oracles);
}

void add_controlled_options(CLI::App* cmd, RunOptions& run) {
  RunRequest& r = run.request;
  cmd->add_option("--strategy", r.strategy,
                  "controlled mode: random, pct, dfs (exhaustive, with "
                  "partial-order reduction) or plain-dfs (every schedule)")
      ->check(CLI::IsMember({"random", "pct", "dfs", "plain-dfs"}));
  cmd->add_option_function<std::string>(
         "--threads",
         [&r](const std::string& name) {
           r.threads = *sched::parse_substrate(name);
         },
         "controlled mode: what logical threads run on: threads (default: "
         "real OS threads, thread_local and thread ids per logical thread) "
         "or fibers (faster, one thread identity)")
      ->check(CLI::IsMember({"fibers", "threads"}));
  add_number_option(cmd, "--depth", r.depth, 1, 100,
                    "pct: bug depth d (d-1 priority change points)");
  add_number_option(cmd, "--preemptions", r.preemptions, 0, 100,
                    "dfs, plain-dfs: preemption bound");
  cmd->add_flag_function(
         "--no-preemption-bound",
         [&r](std::int64_t) { r.preemptions = sched::DfsStrategy::kUnbounded; },
         "dfs: no preemption bound (every class of schedules)")
      ->excludes("--preemptions");
  cmd->add_flag("--memory-model", r.memory_model,
                "controlled mode: an atomic load may read any store the C++ "
                "memory model allows, not only the latest (a subject of the "
                "memory-order pair runs so anyway)");
  add_number_option(cmd, "--budget", r.budget, 1, 100000000,
                    "controlled mode: schedules to try");
  cmd->add_flag("--no-shrink{false}", r.shrink,
                "report the first failing schedule as found");
}

}  // namespace racelab::cli_internal

namespace racelab {

int run_cli(const Registry& registry, int argc, char** argv,
            const std::vector<Command>& extra_commands,
            const std::vector<AntiPattern>& anti_patterns) {
  // Every command's exit status is its verdict's, even when its stdout is
  // closed (`racelab list | head -c 0`): a write there fails with EPIPE and
  // costs only the output, instead of SIGPIPE ending the process with 141.
  // Once, here, so that no command has to remember it. (Not for the hidden
  // child, which keeps the signals a fresh process has: runner.cc.)
  if (argc < 2 || std::string_view(argv[1]) != "__child")
    report_write_errors_instead_of_dying();
  // racelab waits for the processes it starts (the hidden child too): a
  // SIGCHLD its caller ignored, a disposition kept across exec, would have
  // the kernel reap them unasked and their statuses lost, a crash read as
  // a clean end. racelab's dispositions are its own.
  ::signal(SIGCHLD, SIG_DFL);
  for (const Command& command : extra_commands) {
    if (argc > 1 && command.name == argv[1])
      return command.run(argc - 1, argv + 1);
  }
  CLI::App app{"racelab: race-detection test harness for concurrent stores"};
  for (const Command& command : extra_commands) {
    app.footer(app.get_footer() + "\n  " + command.name + ": " +
               command.summary + " (racelab " + command.name + " --help)");
  }
  app.set_version_flag("--version", std::string("racelab ") + RACELAB_VERSION);
  app.require_subcommand(1);
  // `explore ... -- ./program args`: the program's arguments are kept byte
  // for byte, out of CLI11's reach (it would read "[a,b]" as a list of two).
  // CLI11 sees the program's name only.
  std::vector<std::string> program_command;
  if (argc > 2 && std::string_view(argv[1]) == "explore") {
    for (int i = 2; i + 1 < argc; ++i) {
      if (std::string_view(argv[i]) != "--") continue;
      program_command.assign(argv + i + 1, argv + argc);
      argc = i + 2;
      break;
    }
  }
  const std::vector<cli_internal::Subcommand> subcommands = {
      cli_internal::add_list_command(app, registry),
      cli_internal::add_run_command(app, registry),
      cli_internal::add_replay_command(app, registry),
      cli_internal::add_explore_command(app, &program_command),
      cli_internal::add_gate_command(app, registry),
      cli_internal::add_merge_command(app),
      cli_internal::add_demo_command(app, registry, anti_patterns),
      cli_internal::add_child_command(app, registry)};

  std::set<std::string> commands;
  for (const cli_internal::Subcommand& s : subcommands)
    commands.insert(s.cmd->get_name());
  std::string command_list = "list, run, gate, merge, replay, explore, demo";
  for (const Command& command : extra_commands) {
    commands.insert(command.name);
    command_list += ", " + command.name;
  }
  if (argc > 1 && argv[1][0] != '-' && !commands.contains(argv[1])) {
    print_error(std::cerr, absl::StrCat("unknown command '", argv[1],
                                        "' (commands: ", command_list, ")"));
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // CLI11's first line is the error; what follows is advice on --help.
    const std::string what = e.what();
    print_error(std::cerr, what.substr(0, what.find('\n')));
    return kExitUsage;
  }

  try {
    std::vector<std::string> problems = registry.validate();
    for (std::string& p : check_anti_patterns(registry, anti_patterns)) {
      problems.push_back(std::move(p));
    }
    if (!problems.empty()) {
      for (const std::string& p : problems) print_error(std::cerr, p);
      return kExitHarness;
    }
    for (const cli_internal::Subcommand& s : subcommands) {
      if (*s.cmd) return s.run();
    }
  } catch (const cli_internal::UsageError& e) {
    print_error(std::cerr, e.what());
    return kExitUsage;
  } catch (const OutputError& e) {
    print_error(std::cerr, e.what());
    return kExitHarness;
  } catch (const InputError& e) {
    print_error(std::cerr, e.what());
    return kExitUsage;
  } catch (const sched::ScheduleFileError& e) {
    print_error(std::cerr, e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    print_error(std::cerr, e.what(), "internal error: ");
    return kExitHarness;
  }
  return kExitUsage;
}

}  // namespace racelab
