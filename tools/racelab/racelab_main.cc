// The racelab binary: the engine's command line over the built-in catalog
// and its anti-patterns (`racelab demo`), plus `racelab bench`, which
// measures racelab itself on that catalog.
#include <CLI/CLI.hpp>
#include <iostream>

#include "anti_patterns.h"
#include "bench.h"
#include "catalog.h"
#include "racelab/cli.h"

namespace {

// `racelab bench [options]`.
int bench_command(const racelab::Registry& registry, int argc, char** argv) {
  racelab::BenchOptions options;
  CLI::App app{
      "racelab bench: racelab's own costs under TSan, side by side in one run "
      "(controlled vs stress, time to the first finding, oracles, fuzz exec/s)",
      "racelab bench"};
  app.add_flag("--quick", options.quick, "minimal budgets (a smoke test)");
  app.add_option("--seeds", options.seeds,
                 "seeds per buggy case and strategy (median over them)")
      ->check(CLI::Range(1, 10000));
  app.add_option("--seed", options.seed, "first seed");
  app.add_option("--budget", options.budget, "controlled: schedules per search")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--max-stress-runs", options.max_stress_runs,
                 "stress: runs per seed before giving up")
      ->check(CLI::Range(1, 100000));
  app.add_option("--measure-ms", options.measure_ms,
                 "milliseconds per throughput round")
      ->check(CLI::Range(1, 600000));
  app.add_option(
      "--sections", options.sections,
      "comma list of throughput, gate, switch, startup, first, oracles, dpor, "
      "programs, memory, threads, fuzz (default all)");
  app.add_option(
      "--filter", options.case_filter,
      "first finding, dpor: only cases whose subject or scenario contains "
      "this");
  app.add_option("--preemptions", options.preemptions,
                 "dpor: preemption bound of plain dfs and of dfs")
      ->check(CLI::Range(0, 100));
  app.add_option("--dpor-budget", options.dpor_budget,
                 "dpor: schedules per search")
      ->check(CLI::Range(1, 100000000));
  app.add_option("--program", options.program,
                 "programs: racelab_native_program, built with "
                 "racelab::runtime (default: the one of this build)");
  app.add_option("--fuzz-dir", options.fuzz_dir,
                 "folder of the fuzz_* binaries (default build/fuzz/fuzz)");
  app.add_option("--fuzz-seconds", options.fuzz_seconds,
                 "-max_total_time per fuzz target")
      ->check(CLI::Range(1, 3600));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string what = e.what();
    std::cerr << "racelab: bench: " << what.substr(0, what.find('\n')) << "\n";
    return racelab::kExitUsage;
  }
  return racelab::run_bench(registry, options, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  racelab::Registry registry;
  racelab::register_builtin_catalog(registry);
  std::vector<racelab::Command> commands = {
      {"bench",
       "measure racelab itself: controlled vs stress, first finding, oracles",
       [&registry](int n, char** args) {
         return bench_command(registry, n, args);
       }}};
  std::vector<racelab::AntiPattern> anti_patterns;
  for (const racelab::AntiPatternText& p : racelab::anti_pattern_texts()) {
    anti_patterns.push_back({p.name, p.buggy, p.fixed, p.scenario, p.marker,
                             p.summary, p.story, p.oracles});
  }
  return racelab::run_cli(registry, argc, argv, commands, anti_patterns);
}
