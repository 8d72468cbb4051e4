// The racelab command line; see cli.h.
#include "racelab/cli.h"

#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "racelab/atomic_file.h"
#include "racelab/child_request.h"
#include "racelab/demo.h"
#include "racelab/error_line.h"
#include "racelab/gate.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/interrupt.h"
#include "racelab/json.h"
#include "racelab/merge.h"
#include "racelab/oracle.h"
#include "racelab/output_folder.h"
#include "racelab/program_explorer.h"
#include "racelab/program_schedule.h"
#include "racelab/report.h"
#include "racelab/result_channel.h"
#include "racelab/runner.h"
#include "racelab/saved_schedule.h"
#include "racelab/schedule_source.h"
#include "racelab/truth_table.h"

namespace racelab {
namespace {

// A user error: one line on stderr, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The replay side of a run: the recorded program (setup, threads, finale)
// and decisions.
void load_replay(const sched::ScheduleFile& file, RunRequest& request) {
  request.replay_program = file.program_lines();
  request.replay_decisions = file.decisions;
  request.strategy = "replay";
}

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

template <class T>
CLI::Option* add_number_option(CLI::App* cmd, const std::string& names,
                               T& value, T low, T high,
                               const std::string& help) {
  static_assert(std::is_integral_v<T>);
  const std::string flag = names.substr(0, names.find(','));
  return cmd
      ->add_option_function<std::string>(
          names,
          [&value, flag, low, high](const std::string& text) {
            std::optional<std::uint64_t> v = parse_whole_number(text);
            if (!v || *v < static_cast<std::uint64_t>(low) ||
                *v > static_cast<std::uint64_t>(high)) {
              throw CLI::ValidationError(
                  flag, absl::StrCat("'", text, "' is not a whole number from ",
                                     low, " to ", high));
            }
            value = static_cast<T>(*v);
          },
          help.empty() ? help
                       : absl::StrCat(help, " (", low, " to ", high, ")"))
      ->type_name("N");
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
                const std::string& scenario,
                const std::string& subject_where = "--subject",
                const std::string& scenario_where = "--scenario") {
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
          "--budget", "--no-shrink", "--controlled-runs"}) {
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

// --shard K/N: 1 <= K <= N <= 10000.
void parse_shard(const std::string& text, GateOptions& options) {
  auto number = [&](std::string_view part, int& value) {
    const auto [end, error] =
        std::from_chars(part.data(), part.data() + part.size(), value);
    return error == std::errc() && end == part.data() + part.size() &&
           !part.empty();
  };
  const std::size_t slash = text.find('/');
  int k = 0, n = 0;
  if (slash == std::string::npos ||
      !number(std::string_view(text).substr(0, slash), k) ||
      !number(std::string_view(text).substr(slash + 1), n) || n < 1 ||
      n > 10000 || k < 1 || k > n) {
    throw CLI::ValidationError(
        "--shard", absl::StrCat("'", text,
                                "' is not K/N with 1 <= K <= N <= 10000 (for "
                                "example 2/3: the second of three shards)"));
  }
  options.shard_index = k;
  options.shard_count = n;
}

void print_list(const Registry& registry, std::ostream& out) {
  out << "subjects:\n";
  for (const CatalogEntry& s : registry.subjects()) {
    out << absl::StrFormat("  %-32s %-6s %s\n", s.name,
                           s.buggy ? "buggy" : "fixed", s.description);
  }
  out << "\nscenarios:\n";
  for (const CatalogEntry& s : registry.scenarios()) {
    out << absl::StrFormat("  %-12s %-27s %s\n", s.family, s.name,
                           s.description);
  }
  out << "\nexpectations (subject x scenario -> verdict):\n";
  for (const Expectation& e : registry.expectations()) {
    std::string modes = absl::StrJoin(e.modes, ",", [](std::string* o, Mode m) {
      absl::StrAppend(o, to_string(m));
    });
    out << absl::StrFormat("  %-32s %-27s %-18s %-36s %s\n", e.subject,
                           e.scenario, modes, describe_expected(e), e.why);
  }
}

// The expectation table per oracle, as a Markdown table (docs/truth-table.md
// is this output).
void print_truth_table(const Registry& registry, std::ostream& out) {
  out << "| subject | scenario | modes | verdict |";
  for (OracleSet column : truth_table_columns())
    out << " " << column_heading(column) << " |";
  out << " why |\n|---|---|---|---|";
  for (size_t i = 0; i < truth_table_columns().size(); ++i) out << "---|";
  out << "---|\n";
  for (const Expectation& e : registry.expectations()) {
    std::string modes = absl::StrJoin(
        e.modes, ", ",
        [](std::string* o, Mode m) { absl::StrAppend(o, to_string(m)); });
    out << "| " << e.subject << " | " << e.scenario << " | " << modes << " | "
        << (!e.catches.empty() ? "caught"
            : e.verified       ? "clean, verified in controlled"
                               : "clean")
        << " |";
    for (OracleSet column : truth_table_columns()) {
      out << " " << to_string(duty_of(e, column)) << " |";
    }
    out << " " << e.why << " |\n";
  }
  out << "\nMUST: this oracle must catch it; one of: at least one of the "
         "oracles so "
         "marked must catch it; may: a consequence it may also report; -: it "
         "must stay "
         "silent. The gate fails on a case whose runs break any of these.\n";
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

// Writes a case's recorded schedule as a schedule file.
void save_case_schedule(const CaseResult& c, const RunOptions& options,
                        const std::string& path) {
  if (c.schedule.program.size() < 3) {
    throw InputError("--save-schedule: the run recorded no schedule to save");
  }
  sched::ScheduleFile file = schedule_file_for(
      c.schedule,
      {c.subject, c.scenario, options.request.strategy, options.request.seed});
  // What else changes a run, so that replay runs it the same way.
  file.extra.emplace_back(
      "threads", std::string(sched::to_string(options.request.threads)));
  file.extra.emplace_back("run_timeout_ms",
                          absl::StrCat(options.effective_run_timeout_ms()));
  save_schedule(path, file, [](const std::string& file, std::string_view text) {
    write_file_atomically(file, text);
  });
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

// One subcommand: its flags, registered on its own CLI::App, and its handler,
// which runs once they are parsed and returns the exit status. A handler
// throws UsageError, InputError, OutputError or sched::ScheduleFileError for
// run_cli to report as one line.
struct Subcommand {
  CLI::App* cmd = nullptr;
  std::function<int()> run;
};

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
         [&r](std::int64_t) {
           r.preemptions = sched::DporStrategy::kUnbounded;
         },
         "dfs: no preemption bound (every class of schedules)")
      ->excludes("--preemptions");
  add_number_option(cmd, "--budget", r.budget, 1, 100000000,
                    "controlled mode: schedules to try");
  cmd->add_flag("--no-shrink{false}", r.shrink,
                "report the first failing schedule as found");
}

// racelab list
Subcommand add_list_command(CLI::App& app, const Registry& registry) {
  auto truth_table = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("list", "list subjects, scenarios and expectations");
  cmd->add_flag("--truth-table", *truth_table,
                "print only the expectation table");
  return {cmd, [&registry, truth_table] {
            if (*truth_table) {
              print_truth_table(registry, std::cout);
            } else {
              print_list(registry, std::cout);
            }
            return kExitOk;
          }};
}

// racelab run
struct RunFlags {
  RunOptions run;
  std::string subject, scenario, mode_name = "stress", json_file, out_dir;
};

int handle_run(const Registry& registry, const CLI::App& cmd, RunFlags& flags) {
  RunOptions& run_options = flags.run;
  const std::string& subject = flags.subject;
  const std::string& scenario = flags.scenario;
  run_options.request.mode = parse_mode(flags.mode_name);
  const Mode mode = run_options.request.mode;
  check_flags_apply(cmd, mode == Mode::kStress, mode == Mode::kControlled,
                    run_options.request.strategy);
  // One search of up to --budget schedules, unless more are asked for.
  if (mode == Mode::kControlled && cmd.count("--runs") == 0)
    run_options.runs = 1;
  check_case(registry, subject, scenario);
  // A flag given an empty path is a usage error, not a flag left out.
  const bool save_schedule = cmd.count("--save-schedule") > 0;
  const bool json = cmd.count("--json") > 0;
  if (mode == Mode::kStress && save_schedule) {
    throw UsageError(
        "--save-schedule: stress mode records no schedule (use --mode "
        "controlled)");
  }
  // Every output is checked before the run and written after it, each
  // one even when another fails.
  report_write_errors_instead_of_dying();
  if (save_schedule)
    check_output_file("--save-schedule", run_options.save_schedule);
  if (json) check_output_file("--json", flags.json_file);
  std::optional<OutputFolder> out;
  if (cmd.count("--out") > 0) out.emplace("--out", flags.out_dir);
  InterruptScope interrupt;
  const CaseSpec* spec = registry.find_case(subject, scenario);
  CaseResult result = run_case(
      *spec, registry.find_expectation(subject, scenario, mode), run_options);
  if (const int sig = InterruptScope::signal_received(); sig != 0) {
    std::cerr << "racelab: interrupted by " << signal_name(sig)
              << " before the case finished; nothing written\n";
    return 128 + sig;
  }
  print_case(result, std::cout);
  std::vector<std::pair<std::string, int>> errors;
  auto attempt = [&](const std::function<void()>& write) {
    try {
      write();
    } catch (const OutputError& e) {
      errors.emplace_back(e.what(), kExitHarness);
    } catch (const InputError& e) {
      errors.emplace_back(e.what(), kExitUsage);
    }
  };
  if (save_schedule) {
    attempt([&] {
      save_case_schedule(result, run_options, run_options.save_schedule);
      std::cout << "schedule saved to " << run_options.save_schedule << "\n";
    });
  }
  if (json) {
    attempt([&] {
      write_file_atomically(flags.json_file, to_json(result).dump(2) + "\n");
    });
  }
  if (out) {
    attempt([&] {
      GateResult single;
      single.run_id = make_run_id();
      single.mismatches = result.mismatch.empty() ? 0 : 1;
      single.cases_total = 1;
      single.cases = {result};
      GateOptions opts;
      opts.modes = {mode};
      opts.run = run_options;
      opts.subject_filter = subject;
      opts.scenario_filter = scenario;
      try {
        write_results_json(single, opts, out->staging().string());
        out->commit();
      } catch (const OutputError& e) {
        throw OutputError(out->explain(e.what()));
      }
    });
  }
  std::cout.flush();
  for (const auto& [message, status] : errors) print_error(std::cerr, message);
  if (!errors.empty()) return errors.front().second;
  return result.mismatch.empty() ? kExitOk : kExitMismatch;
}

Subcommand add_run_command(CLI::App& app, const Registry& registry) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand("run", "run one case and judge it");
  cmd->add_option("--subject", flags->subject, "family/variant")->required();
  cmd->add_option("--scenario", flags->scenario, "scenario name")->required();
  cmd->add_option("--mode", flags->mode_name, "stress or controlled");
  cmd->add_option("--json", flags->json_file, "write the case result as JSON");
  cmd->add_option("--out", flags->out_dir,
                  "write results.json into this folder");
  cmd->add_option(
      "--save-schedule", flags->run.save_schedule,
      "controlled mode: write the (failing, else last) schedule here");
  add_run_options(cmd, flags->run);
  add_controlled_options(cmd, flags->run);
  return {cmd, [&registry, cmd, flags] {
            return handle_run(registry, *cmd, *flags);
          }};
}

// racelab replay
struct ReplayFlags {
  std::string path;
  OracleSet oracles = OracleSet::selectable();
};

// Explores or replays a whole program: SIGINT and SIGTERM stop the program
// and the search (the schedules so far are reported, exit 128 + signal), a
// closed stdout costs only the text, never the status.
int explore_and_print(const ProgramExploreOptions& options,
                      const std::string* out_dir = nullptr) {
  report_write_errors_instead_of_dying();
  // The output folder is claimed before the search, written after it.
  std::optional<OutputFolder> out;
  if (out_dir != nullptr) out.emplace("--out", *out_dir);
  InterruptScope interrupt;
  ProgramExploreOptions run = options;
  run.stop_requested = [] { return InterruptScope::signal_received() != 0; };
  const ProgramExploreResult result = explore_program(std::move(run));
  const int sig = InterruptScope::signal_received();
  if (!result.inconclusive.empty() && !result.found() && sig == 0) {
    throw InputError(absl::StrCat(options.command.front(),
                                  ": inconclusive: ", result.inconclusive));
  }
  std::cout << describe(result, options);
  std::cout.flush();
  if (sig != 0) {
    std::cerr << "racelab: interrupted by " << signal_name(sig) << " after "
              << result.search.schedules << " schedules; nothing written\n";
    return 128 + sig;
  }
  if (out) {
    GateResult single;
    single.run_id = make_run_id();
    single.cases = {program_case_result(result, options)};
    single.mismatches = single.cases[0].mismatch.empty() ? 0 : 1;
    single.cases_total = 1;
    GateOptions gate_options;
    gate_options.modes = {Mode::kControlled};
    gate_options.run.request.mode = Mode::kControlled;
    gate_options.run.request.strategy = options.strategy;
    gate_options.run.request.seed = options.seed;
    gate_options.run.request.depth = options.depth;
    gate_options.run.request.preemptions = options.preemptions;
    gate_options.run.request.budget = options.budget;
    try {
      write_results_json(single, gate_options, out->staging().string());
      out->commit();
    } catch (const OutputError& e) {
      print_error(std::cerr, out->explain(e.what()));
      return kExitHarness;
    }
    std::cout << "reports written to " << *out_dir << "\n";
  }
  return result.found() ? kExitMismatch : kExitOk;
}

int handle_replay(const Registry& registry, const ReplayFlags& flags) {
  // Read once: the path may be a pipe.
  LoadedSchedule loaded = load_schedule(flags.path, read_schedule_source);
  if (loaded.file.mode == "program") {
    ProgramExploreOptions options;
    program_schedule_options(flags.path, loaded.file, options);
    return explore_and_print(options);
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

Subcommand add_replay_command(CLI::App& app, const Registry& registry) {
  auto flags = std::make_shared<ReplayFlags>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "rerun a saved schedule and print its trace");
  cmd->add_option("file", flags->path, "a schedule file")->required();
  add_oracles_option(cmd, flags->oracles);
  return {cmd, [&registry, flags] { return handle_replay(registry, *flags); }};
}

// racelab explore -- ./program args
Subcommand add_explore_command(CLI::App& app) {
  auto options = std::make_shared<ProgramExploreOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explore",
      "explore schedules of a whole program built with -fsanitize=thread "
      "and linked with racelab::runtime: racelab explore [options] -- "
      "./program args");
  cmd->add_option("--strategy", options->strategy,
                  "pct (default), random, dfs (partial-order reduction; a "
                  "clean search of its whole tree is verified) or plain-dfs")
      ->check(CLI::IsMember({"pct", "random", "dfs", "plain-dfs"}));
  add_number_option(cmd, "--preemptions", options->preemptions, 0, 100,
                    "dfs, plain-dfs: preemption bound");
  cmd->add_flag_function(
         "--no-preemption-bound",
         [options](std::int64_t) {
           options->preemptions = sched::DporStrategy::kUnbounded;
         },
         "dfs: no preemption bound (every class of schedules)")
      ->excludes("--preemptions");
  cmd->add_flag("--no-shrink{false}", options->shrink,
                "report the failing schedule as found, without shrinking it");
  add_number_option(cmd, "--budget", options->budget, 1, 1000000,
                    "schedules (one process each) to try; default 100");
  add_number_option(cmd, "--seed", options->seed, std::uint64_t{0},
                    std::numeric_limits<std::uint64_t>::max(),
                    "pct, random: the strategy's seed");
  add_number_option(cmd, "--depth", options->depth, 1, 100, "pct: bug depth d");
  add_number_option(
      cmd, "--max-steps", options->max_steps, 1, 100000000,
      "decisions without progress before a schedule is a livelock");
  add_number_option(cmd, "--hang-seconds", options->hang_seconds, 1, 86400,
                    "no scheduling decision for this long is a hang");
  cmd->add_option("--save-schedule", options->schedule_path,
                  "where to save the failing schedule");
  auto out_dir = std::make_shared<std::string>();
  cmd->add_option("--out", *out_dir,
                  "write the reports (results.json, summary.md, junit.xml, "
                  "results.sarif, index.html) into this folder");
  cmd->add_option("command", options->command, "the program and its arguments")
      ->required();
  return {cmd, [cmd, options, out_dir] {
            check_flags_apply(*cmd, /*stress=*/false, /*controlled=*/true,
                              options->strategy);
            if (cmd->count("--save-schedule") > 0 &&
                options->schedule_path.empty()) {
              throw UsageError("--save-schedule: empty path");
            }
            return explore_and_print(
                *options, cmd->count("--out") > 0 ? out_dir.get() : nullptr);
          }};
}

// racelab gate
struct GateFlags {
  GateOptions gate;
  std::string mode = "stress";
  int controlled_runs = 1;
};

int handle_gate(const Registry& registry, const CLI::App& cmd,
                GateFlags& flags) {
  GateOptions& gate_options = flags.gate;
  if (flags.mode == "all") {
    gate_options.modes = {Mode::kStress, Mode::kControlled};
  } else {
    gate_options.modes = {parse_mode(flags.mode)};
  }
  const bool stress = gate_options.modes.front() == Mode::kStress;
  const bool controlled = gate_options.modes.back() == Mode::kControlled;
  check_flags_apply(cmd, stress, controlled, gate_options.run.request.strategy);
  if (!stress && cmd.count("--runs") > 0) {
    throw UsageError(
        "--runs: applies to stress mode only; gate --mode controlled runs "
        "each case --controlled-runs times");
  }
  gate_options.controlled_runs = flags.controlled_runs;
  if (!built_with_tsan()) {
    throw UsageError(
        "gate needs the ThreadSanitizer build (the expectation table "
        "counts on "
        "the tsan oracle): use build/tsan/racelab");
  }
  if (count_gate_cases(registry, gate_options) == 0) {
    throw UsageError(
        absl::StrCat("no case matches --subject '", gate_options.subject_filter,
                     "' and --scenario '", gate_options.scenario_filter, "'"));
  }
  // The output folder is claimed before any case runs; the reports are
  // written before the table is printed, and a closed stdout (SIGPIPE)
  // costs only the table: the exit status stays the verdict's.
  report_write_errors_instead_of_dying();
  std::optional<OutputFolder> out;
  // An empty --out is refused, not taken for no --out.
  if (cmd.count("--out") > 0) out.emplace("--out", gate_options.out_dir);
  InterruptScope interrupt;
  gate_options.stop_requested = [] {
    return InterruptScope::signal_received() != 0;
  };
  gate_options.show_progress = isatty(STDERR_FILENO) != 0;
  GateResult result = run_gate(registry, gate_options, std::cerr);
  const int sig = InterruptScope::signal_received();
  result.interrupt_signal = sig;
  if (!result.harness_error.empty() && sig == 0) {
    print_error(std::cerr, result.harness_error, "internal error: ");
    return kExitHarness;
  }
  std::string write_error;
  if (out) {
    try {
      write_results_json(result, gate_options, out->staging().string());
      out->commit();
    } catch (const OutputError& e) {
      write_error = out->explain(e.what());
    }
  }
  print_gate_table(result, std::cout);
  if (out && write_error.empty())
    std::cout << "reports written to " << gate_options.out_dir << "\n";
  std::cout.flush();
  if (sig != 0) {
    std::cerr << "racelab: interrupted by " << signal_name(sig) << ": "
              << result.cases.size() << " cases finished, "
              << result.not_run.size() << " not run\n";
  }
  if (!write_error.empty()) {
    print_error(std::cerr, write_error);
    return kExitHarness;
  }
  if (sig != 0) return 128 + sig;
  return result.mismatches == 0 ? kExitOk : kExitMismatch;
}

Subcommand add_gate_command(CLI::App& app, const Registry& registry) {
  auto flags = std::make_shared<GateFlags>();
  GateOptions& gate_options = flags->gate;
  CLI::App* cmd =
      app.add_subcommand("gate", "run every case, judge the whole table");
  cmd->add_option("--mode", flags->mode, "stress, controlled or all");
  cmd->add_option("--out", gate_options.out_dir,
                  "write results.json into this folder");
  add_number_option(cmd, "--jobs,-j", gate_options.jobs, 1, 256,
                    "cases run in parallel");
  cmd->add_option("--subject", gate_options.subject_filter,
                  "only subjects containing this");
  cmd->add_option("--scenario", gate_options.scenario_filter,
                  "only scenarios containing this");
  cmd->add_option_function<std::string>(
      "--shard",
      [&gate_options](const std::string& text) {
        parse_shard(text, gate_options);
      },
      "run shard K of N (K/N): the cases at positions i with i % N == K-1 "
      "(racelab merge joins the shards' --out folders)");
  add_number_option(cmd, "--controlled-runs", flags->controlled_runs, 1, 1000,
                    "controlled mode: independent searches per case (each up "
                    "to --budget schedules)");
  add_run_options(cmd, gate_options.run);
  add_controlled_options(cmd, gate_options.run);
  return {cmd, [&registry, cmd, flags] {
            return handle_gate(registry, *cmd, *flags);
          }};
}

// racelab merge
struct MergeFlags {
  std::vector<std::string> dirs;
  std::string out;
};

int handle_merge(const MergeFlags& flags) {
  report_write_errors_instead_of_dying();
  OutputFolder out("--out", flags.out);
  std::vector<GateOutput> shards;
  for (const std::string& dir : flags.dirs)
    shards.push_back(read_gate_output(dir));
  GateOutput merged = merge_gate_outputs(shards);
  try {
    write_results_json(merged.result, merged.options, out.staging().string());
    out.commit();
  } catch (const OutputError& e) {
    print_error(std::cerr, out.explain(e.what()));
    return kExitHarness;
  }
  print_gate_table(merged.result, std::cout);
  std::cout << "reports of " << shards.size() << " shards written to "
            << flags.out << "\n";
  return merged.result.mismatches == 0 ? kExitOk : kExitMismatch;
}

Subcommand add_merge_command(CLI::App& app) {
  auto flags = std::make_shared<MergeFlags>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "join the --out folders of gate shards (--shard K/N) into one set of "
      "reports");
  cmd->add_option("dirs", flags->dirs, "the shards' --out folders")->required();
  cmd->add_option("--out", flags->out, "write the joined reports here")
      ->required();
  return {cmd, [flags] { return handle_merge(*flags); }};
}

// racelab demo
Subcommand add_demo_command(CLI::App& app, const Registry& registry,
                            const std::vector<AntiPattern>& anti_patterns) {
  auto names = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "walk through an anti-pattern: code, failing interleaving, oracles, fix");
  cmd->add_option("name", *names, "anti-pattern (none: list them)");
  return {cmd, [&registry, &anti_patterns, names] {
            return run_demo(registry, anti_patterns, *names, std::cout);
          }};
}

// racelab __child: one run of a case, as the request on kChildRequestFd asks.
int handle_child(const Registry& registry) {
  constexpr int kResultFd = 3;
  ChildRequest request;
  try {
    request = read_child_request(kChildRequestFd);
    if (!request.replay_schedule.empty()) {
      const std::string name = "the replayed schedule";
      load_replay(sched::parse_schedule(request.replay_schedule, name),
                  request.run);
    }
  } catch (const std::exception& e) {
    // The parent wrote and checked this request; tell it on the result
    // channel, where an error is an input error and never a finding.
    const std::string line = event_line("error", e.what()) + "\n";
    print_error(std::cerr, e.what());
    if (::write(kResultFd, line.data(), line.size()) < 0) {
      // No result channel: the line on stderr is all there is.
    }
    return kExitUsage;
  }
  return child_main(registry, request);
}

Subcommand add_child_command(CLI::App& app, const Registry& registry) {
  CLI::App* cmd = app.add_subcommand("__child", "(internal) one run of a case");
  cmd->group("");
  return {cmd, [&registry] { return handle_child(registry); }};
}

}  // namespace

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
  for (const Command& command : extra_commands) {
    if (argc > 1 && command.name == argv[1])
      return command.run(argc - 1, argv + 1);
  }
  CLI::App app{"racelab: race-detection test harness for concurrent stores"};
  for (const Command& command : extra_commands) {
    app.footer(app.get_footer() + "\n  " + command.name + ": " +
               command.summary + " (racelab " + command.name + " --help)");
  }
  app.require_subcommand(1);
  const std::vector<Subcommand> subcommands = {
      add_list_command(app, registry),
      add_run_command(app, registry),
      add_replay_command(app, registry),
      add_explore_command(app),
      add_gate_command(app, registry),
      add_merge_command(app),
      add_demo_command(app, registry, anti_patterns),
      add_child_command(app, registry)};

  std::set<std::string> commands;
  for (const Subcommand& s : subcommands) commands.insert(s.cmd->get_name());
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
    for (const Subcommand& s : subcommands) {
      if (*s.cmd) return s.run();
    }
  } catch (const UsageError& e) {
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
