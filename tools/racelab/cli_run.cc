// racelab run: the runs of one case, its verdict, and its reports.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

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

}  // namespace

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

}  // namespace racelab::cli_internal
