// `racelab bench`, section "gate" and the bench's last line: controlled mode
// against stress mode the way a user meets them, as `racelab gate` runs a
// case: one child process per case, the gate's budget of schedules
// (controlled) and its number of runs (stress), every oracle on. The figure
// is CPU time (this process and its children) per schedule and per run, so
// the machine's load does not inflate it; each round measures both, and the
// spread over rounds is shown beside the median.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/defaults.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

// A fixed subject's seed scenario: clean in both modes, so the controlled
// search spends its whole budget and the stress case all its runs, as the
// gate's clean rows do.
constexpr const char* kSubject = "checkpoint/mutex";
constexpr const char* kScenario = "seed_concurrent_sessions";

struct Spent {
  int units = 0;  // schedules or runs
  double wall_s = 0;
  double cpu_s = 0;
  bool finding = false;
};

Spent run_case_as_the_gate_does(const CaseSpec& spec, RunOptions options) {
  std::vector<RunObservation> runs;
  const Measured m = measure_once(
      [&] { runs = run_batch_in_child(spec, options, 0, options.runs); });
  Spent spent;
  spent.wall_s = m.wall_s;
  spent.cpu_s = m.cpu_s;
  for (const RunObservation& r : runs) {
    spent.units += options.request.mode == Mode::kControlled ? r.schedules : 1;
    spent.finding = spent.finding || !r.findings.empty();
  }
  return spent;
}

}  // namespace

std::string gate_ratio_section(const Registry& registry,
                               const BenchOptions& options, std::ostream& out) {
  const CaseSpec* spec = registry.find_case(kSubject, kScenario);
  if (spec == nullptr) {
    out << "== gate: no case " << kSubject << " x " << kScenario << " ==\n\n";
    return "";
  }
  RunOptions controlled;
  controlled.self_exe = options.self_exe;
  controlled.request.mode = Mode::kControlled;
  controlled.request.seed = options.seed;
  controlled.request.budget = options.quick ? 100 : defaults::kBudget;
  controlled.runs = 1;
  RunOptions stress;
  stress.self_exe = options.self_exe;
  stress.request.mode = Mode::kStress;
  stress.request.seed = options.seed;
  stress.runs = options.quick ? 2 : defaults::kStressRuns;

  out << "== gate: controlled vs stress as racelab gate runs them ==\n"
      << kSubject << " x " << kScenario << ", every oracle, one child process "
      << "per case: controlled = a search of " << controlled.request.budget
      << " schedules (" << defaults::kStrategy << ", "
      << "OS threads), "
      << "stress = " << stress.runs << " runs; " << kRounds
      << " alternating rounds: median (range). cpu = CPU time of the bench "
         "and its children, which the machine's load does not inflate\n";
  std::vector<double> c_cpu, c_wall, s_cpu, s_wall, ratio, wall_ratio;
  bool finding = false;
  for (int round = 0; round < kRounds; ++round) {
    const Spent c = run_case_as_the_gate_does(*spec, controlled);
    const Spent s = run_case_as_the_gate_does(*spec, stress);
    finding = finding || c.finding || s.finding;
    if (c.units == 0 || s.units == 0) continue;
    c_cpu.push_back(1e3 * c.cpu_s / c.units);
    c_wall.push_back(1e3 * c.wall_s / c.units);
    s_cpu.push_back(1e3 * s.cpu_s / s.units);
    s_wall.push_back(1e3 * s.wall_s / s.units);
    ratio.push_back(s_cpu.back() / c_cpu.back());
    wall_ratio.push_back(s_wall.back() / c_wall.back());
  }
  out << absl::StrFormat("  %-12s %24s %24s\n", "", "cpu ms", "wall ms");
  out << absl::StrFormat("  %-12s %24s %24s\n", "per schedule",
                         median_and_range(c_cpu), median_and_range(c_wall));
  out << absl::StrFormat("  %-12s %24s %24s\n", "per run",
                         median_and_range(s_cpu), median_and_range(s_wall));
  if (finding) {
    out << "  warning: the fixed subject reported a finding; the figures "
           "include its report\n";
  }
  out << "\n";
  if (ratio.empty()) return "";
  return absl::StrCat(
      "controlled/stress ratio, as racelab gate runs them: ",
      median_and_range(ratio),
      " controlled schedules for the CPU time of one stress run (", kSubject,
      " x ", kScenario, ", median (range) of ", ratio.size(),
      " rounds; in wall time ", median_and_range(wall_ratio), ")");
}

}  // namespace racelab::bench_internal
