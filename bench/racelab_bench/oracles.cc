// `racelab bench`, oracle section: what each oracle costs per schedule. The
// in-process oracles (invariants, linearizability, gomap) are toggled through
// Oracles on the fixed program; tsan cannot be (its switch, TSAN_OPTIONS
// report_bugs=0, is process-wide and leaves the instrumentation on), so it is
// measured through child processes, as `racelab run` uses them.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

struct Toggle {
  const char* name;
  OracleSet oracles;
};

std::vector<Toggle> toggles() {
  const OracleSet all = OracleSet::selectable();
  OracleSet no_invariants = all;
  no_invariants.erase(Oracle::kInvariants);
  OracleSet no_lin = all;
  no_lin.erase(Oracle::kLinearizability);
  OracleSet no_gomap = all;
  no_gomap.erase(Oracle::kGomap);
  const OracleSet none = {Oracle::kTsan};
  return {{"all on", all},
          {"invariants off", no_invariants},
          {"linearizability off", no_lin},
          {"gomap off", no_gomap},
          {"all three off", none}};
}

// Wall time of one controlled child run of `spec` with `budget` schedules.
double child_seconds(const CaseSpec& spec, const BenchOptions& options,
                     bool tsan, int budget, int* schedules) {
  RunOptions run;
  run.request.mode = Mode::kControlled;
  run.request.seed = options.seed;
  run.self_exe = options.self_exe;
  run.run_timeout_ms = 60000;
  if (!tsan) run.request.oracles.erase(Oracle::kTsan);
  run.request.strategy = "random";
  run.request.budget = budget;
  run.request.shrink = false;
  const auto start = Clock::now();
  RunObservation record = run_in_child(spec, run, 0);
  const double seconds = seconds_since(start);
  *schedules = record.schedules;
  return seconds;
}

}  // namespace

void oracle_section(const Registry& registry, const BenchOptions& options,
                    std::ostream& out) {
  out << "== oracle cost: controlled schedules per second with each oracle "
         "on and off ==\n"
      << "in process, state/snapshot, the fixed programs, random strategy; "
         "median of 3 alternating rounds; in CPU time (all threads), which "
         "the machine's load does not inflate: sched/s = per CPU second, cost "
         "= cpu us/sched(all on) - cpu us/sched(off). state/snapshot keeps no "
         "GoMap, so gomap only costs its (empty) collection here.\n";
  out << absl::StrFormat("%-8s %-20s %12s %10s %12s\n", "program", "oracles",
                         "sched/s", "cpu us", "cost us");
  for (int threads : {2, 4}) {
    const std::vector<Toggle> all = toggles();
    // Rounds alternate over the configurations; the median of each counts.
    std::vector<std::vector<double>> rates(all.size());
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t i = 0; i < all.size(); ++i) {
        int problems = 0;
        rates[i].push_back(controlled_rate(threads, 8, all[i].oracles,
                                           options.measure_ms, options.seed,
                                           &problems)
                               .per_cpu_second);
      }
    }
    const double us_all_on = 1e6 / median(rates[0]);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const double rate = median(rates[i]);
      const double us = 1e6 / rate;
      out << absl::StrFormat(
          "%-8s %-20s %12s %10s %12s\n", absl::StrCat(threads, " x 8"),
          all[i].name, fmt(rate), fmt(us), i == 0 ? "-" : fmt(us_all_on - us));
    }
  }
  out << "\ntsan (child processes, state/snapshot x generated, random, "
         "no shrink; per schedule = (t(B) - t(1)) / (B - 1), median of 3):\n";
  if (!built_with_tsan()) {
    out << "  skipped: not a ThreadSanitizer build (run build/tsan/racelab "
           "bench)\n\n";
    return;
  }
  const CaseSpec* spec = registry.find_case("state/snapshot", "generated");
  if (spec == nullptr) {
    out << "  skipped: the registry has no state/snapshot x generated case\n\n";
    return;
  }
  const int budget = options.quick ? 50 : 500;
  out << absl::StrFormat("  %-10s %12s %10s %12s\n", "tsan", "sched/s",
                         "us/sched", "B");
  for (bool tsan : {true, false}) {
    std::vector<double> per_schedule;
    for (int rep = 0; rep < 3; ++rep) {
      int one = 0, many = 0;
      const double t1 = child_seconds(*spec, options, tsan, 1, &one);
      const double tb = child_seconds(*spec, options, tsan, budget, &many);
      if (many > one) per_schedule.push_back((tb - t1) / (many - one));
    }
    const double s = median(per_schedule);
    out << absl::StrFormat("  %-10s %12s %10s %12d\n",
                           tsan ? "on" : "off (report_bugs=0)",
                           s > 0 ? fmt(1 / s) : "-", fmt(s * 1e6), budget);
  }
  out << "  (report_bugs=0 keeps the instrumentation: on a clean subject the "
         "two rows differ only by noise; what TSan costs is the TSan build "
         "against the release build, see docs/performance.md)\n\n";
}

}  // namespace racelab::bench_internal
