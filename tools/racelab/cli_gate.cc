// racelab gate: every case of the catalog (or a shard of it) against the
// expectation table, and the reports of the whole set.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

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
  gate_options.identity = gate_identity(registry, gate_options);
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

}  // namespace

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
        const Shard shard = parse_shard(text);
        gate_options.shard_index = shard.index;
        gate_options.shard_count = shard.count;
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

}  // namespace racelab::cli_internal
