// `racelab bench`, section "startup": what a stress run costs beyond the run
// itself, when every run is a child process of its own, when the runs of a
// case share one child (as `racelab gate` runs them), and in process, side
// by side in one run. Wall time and CPU time (this process and its children,
// from getrusage) per run; CPU time does not grow with the machine's load.
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/internal/session.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

struct Cost {
  double wall_ms = 0;  // per run
  double cpu_ms = 0;
};

template <class Fn>
Cost per_run(int runs, Fn fn) {
  const Measured m = measure_once(fn);
  return {1e3 * m.wall_s / runs, 1e3 * m.cpu_s / runs};
}

}  // namespace

void startup_section(const Registry& registry, const BenchOptions& options,
                     std::ostream& out) {
  const std::string subject = "checkpoint/mutex";
  const std::string scenario = "index_reader_vs_committer";
  const CaseSpec* spec = registry.find_case(subject, scenario);
  if (spec == nullptr) {
    out << "== startup: no case " << subject << " x " << scenario << " ==\n";
    return;
  }
  const int runs = options.quick ? 4 : 20;
  RunOptions run;
  run.request.mode = Mode::kStress;
  run.request.seed = options.seed;
  run.self_exe = options.self_exe;
  run.runs = runs;

  out << "== startup: per stress run of " << subject << " x " << scenario
      << ", " << runs << " runs, median of " << kRounds
      << " alternating rounds ==\n"
      << "a child per run: fork and exec of this binary for every run; "
         "shared: one child makes every run (racelab gate); in process: the "
         "run alone. Overhead = the figure minus in process.\n";
  std::vector<double> own_wall, own_cpu, shared_wall, shared_cpu, in_wall,
      in_cpu;
  for (int round = 0; round < kRounds; ++round) {
    Cost own = per_run(runs, [&] {
      for (int i = 0; i < runs; ++i) run_in_child(*spec, run, i);
    });
    Cost shared =
        per_run(runs, [&] { run_batch_in_child(*spec, run, 0, runs); });
    Cost in = per_run(runs, [&] {
      for (int i = 0; i < runs; ++i) {
        Session session;
        RunRequest request = run.request;
        request.run_index = i;
        spec->run(request);
      }
    });
    own_wall.push_back(own.wall_ms);
    own_cpu.push_back(own.cpu_ms);
    shared_wall.push_back(shared.wall_ms);
    shared_cpu.push_back(shared.cpu_ms);
    in_wall.push_back(in.wall_ms);
    in_cpu.push_back(in.cpu_ms);
  }
  const double in_w = median(in_wall), in_c = median(in_cpu);
  auto row = [&](const char* name, const std::vector<double>& wall,
                 const std::vector<double>& cpu) {
    const double w = median(wall), c = median(cpu);
    out << absl::StrFormat(
        "  %-16s wall %8.2f ms (overhead %8.2f)   cpu %8.2f ms (overhead "
        "%8.2f)\n",
        name, w, w - in_w, c, c - in_c);
  };
  row("a child per run", own_wall, own_cpu);
  row("shared child", shared_wall, shared_cpu);
  row("in process", in_wall, in_cpu);
  const double own_over = median(own_cpu) - in_c;
  const double shared_over = median(shared_cpu) - in_c;
  out << absl::StrFormat(
      "  cpu overhead per run: a child per run / shared = %.1f\n\n",
      shared_over > 0.01 ? own_over / shared_over : 0.0);
}

}  // namespace racelab::bench_internal
