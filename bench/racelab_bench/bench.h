// `racelab bench`: what racelab's own machinery costs, measured side by side in
// one run. It prints, in order: controlled-mode schedules per second against
// stress-mode runs per second on the same fixed state program (2 threads x 8
// operations and 4 x 8, subject state/snapshot, in process); schedules and
// wall time to the first finding of every buggy case per strategy and in
// stress mode (child processes, median over seeds); the cost of each oracle;
// schedules explored by plain dfs and by dfs with partial-order reduction for
// every subject x seed scenario, verdicts side by side; a whole program's
// schedules per second with and without the fork server; libFuzzer exec/s
// of the fuzz targets that are built; and, as its last line,
// "controlled/stress ratio: X" for the 2 x 8 program.
#ifndef RACELAB_BENCH_H_
#define RACELAB_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "racelab/registry.h"

namespace racelab {

struct BenchOptions {
  // Minimal budgets everywhere (a smoke test): one seed, 100 schedules, 2
  // stress runs, 100 ms per throughput round, 1 s per fuzz target.
  bool quick = false;
  // Seeds per buggy case and strategy for the time to the first finding; the
  // figure printed is the median over them.
  int seeds = 20;
  std::uint64_t seed = 1;  // the first seed
  // Controlled mode: schedules per search before giving up on a seed.
  int budget = 1000;
  // Stress mode: runs per seed before giving up on it.
  int max_stress_runs = 20;
  // How long each throughput figure is measured, in milliseconds.
  int measure_ms = 1000;
  // Which parts to run: comma list of throughput, gate, switch, startup,
  // first, oracles, dpor, programs, memory, threads, fuzz (or "all"). The
  // last line (controlled against stress as the gate runs them) is printed
  // whenever gate runs.
  std::string sections = "all";
  // The dpor section: the preemption bound of both searches and the
  // schedules each may try.
  int preemptions = 2;
  int dpor_budget = 20000;
  // Only cases whose subject or scenario contains this (first finding, dpor).
  std::string case_filter;
  // The libFuzzer binaries (fuzz_*); empty: build/fuzz/fuzz beside the build
  // folder of this binary.
  std::string fuzz_dir;
  int fuzz_seconds = 3;  // -max_total_time per fuzz target
  // The programs section's whole program (racelab_native_program, linked
  // with racelab::runtime); empty: the one of this binary's build folder.
  std::string program;
  // This binary, re-executed for child runs (runner.h).
  std::string self_exe = "/proc/self/exe";
};

// Runs the benchmark and prints its tables to `out`. Returns a process exit
// status (0, or 2 for bad options).
int run_bench(const Registry& registry, const BenchOptions& options,
              std::ostream& out);

}  // namespace racelab

#endif  // RACELAB_BENCH_H_
