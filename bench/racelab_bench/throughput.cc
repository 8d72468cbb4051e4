// `racelab bench`, first section: controlled mode (fibers, one OS thread, a
// random strategy) against stress mode (real threads, spawned and joined for
// every run) on the same fixed state program, in process, with the same
// oracles and no child-process overhead. Both use the engine's own runners:
// run_schedule<F> and run_stress<F>.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/controlled_runner.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/stress_runner.h"
#include "state_family.h"
#include "state_scenarios.h"
#include "subject_catalog.h"

namespace racelab::bench_internal {
namespace {

using state::StateFamily;
using state::StateOp;

// `threads` x `ops` operations over three keys: each thread cycles through
// set, get, set, all on key (thread + i) % 3, with values unique per
// operation; the setup sets the three keys, the finale reads everything.
Program<StateOp> fixed_program(int threads, int ops) {
  Program<StateOp> p;
  for (int k = 0; k < 3; ++k) {
    p.setup.push_back(StateOp::set(absl::StrCat("k", k), "init"));
  }
  for (int t = 0; t < threads; ++t) {
    std::vector<StateOp> list;
    for (int i = 0; i < ops; ++i) {
      const std::string key = absl::StrCat("k", (t + i) % 3);
      switch (i % 4) {
        case 0:
        case 2:
          list.push_back(StateOp::set(key, absl::StrCat(t, ".", i)));
          break;
        case 1:
          list.push_back(StateOp::get(key));
          break;
        default:
          list.push_back(StateOp::all());
          break;
      }
    }
    p.threads.push_back(std::move(list));
  }
  p.finale.push_back(StateOp::all());
  return p;
}

Scenario<StateFamily> fixed_scenario(int threads, int ops) {
  Program<StateOp> program = fixed_program(threads, ops);
  return {absl::StrCat("bench_", threads, "x", ops),
          "the bench's fixed program",
          [program](std::uint64_t, ProgramSize) { return program; },
          state::check_state_invariants};
}

std::unique_ptr<state::StateStore> (*snapshot_factory())() {
  for (const auto& entry : state_subjects()) {
    if (std::string(entry.variant) == "snapshot") return entry.make;
  }
  return nullptr;
}

std::vector<Finding> no_sanitizer_findings() { return {}; }

}  // namespace

double controlled_rate(int threads, int ops, OracleSet oracles, int ms,
                       std::uint64_t seed, int* problems,
                       sched::Substrate substrate) {
  const Scenario<StateFamily> scenario = fixed_scenario(threads, ops);
  const Program<StateOp> program = scenario.program(seed, ProgramSize::kSmall);
  auto make = snapshot_factory();
  sched::SchedulerOptions scheduler_options;
  scheduler_options.substrate = substrate;
  sched::ControlledScheduler scheduler(scheduler_options);
  sched::RandomStrategy strategy(seed);
  const std::function<std::vector<Finding>()> take = no_sanitizer_findings;
  return per_second(ms, [&] {
    RunObservation outcome = run_schedule<StateFamily>(
        scenario, make, program, oracles, scheduler, strategy, take);
    if (!outcome.findings.empty()) ++*problems;
  });
}

double stress_rate(int threads, int ops, OracleSet oracles, int ms,
                   std::uint64_t seed, int* problems) {
  const Scenario<StateFamily> scenario = fixed_scenario(threads, ops);
  auto make = snapshot_factory();
  RunRequest request;
  request.mode = Mode::kStress;
  request.oracles = oracles;
  request.jitter = false;
  request.seed = seed;
  return per_second(ms, [&] {
    RunObservation obs = run_stress<StateFamily>(scenario, make, request);
    if (!obs.findings.empty()) ++*problems;
    ++request.seed;
  });
}

double throughput_section(const BenchOptions& options, std::ostream& out) {
  const OracleSet oracles =
      OracleSet::selectable();  // all on; tsan is the build's own (no reports
                                // expected)
  out << "== controlled vs stress: the same fixed program, in process ==\n"
      << "subject state/snapshot; each thread cycles set/get/set/all over 3 "
         "keys; oracles "
      << to_string(oracles)
      << "; controlled = run_schedule<F> in a loop with a random strategy "
         "(fibers on one OS thread), stress = run_stress<F> (threads spawned "
         "and joined every run, no jitter); no child processes; median of "
      << kRounds << " alternating rounds of " << options.measure_ms
      << " ms per figure\n";
  out << absl::StrFormat("%-8s %14s %10s %14s %10s %18s\n", "program",
                         "controlled/s", "us/sched", "stress/s", "us/run",
                         "controlled/stress");
  double ratio_2x8 = 0;
  for (int threads : {2, 4}) {
    // Three alternating rounds, median of each: the two modes see the same
    // machine load (other jobs) as far as possible.
    int problems = 0;
    std::vector<double> cs, ss;
    for (int round = 0; round < kRounds; ++round) {
      cs.push_back(controlled_rate(threads, 8, oracles, options.measure_ms,
                                   options.seed, &problems));
      ss.push_back(stress_rate(threads, 8, oracles, options.measure_ms,
                               options.seed, &problems));
    }
    const double c = median(cs);
    const double s = median(ss);
    const double ratio = c / s;
    if (threads == 2) ratio_2x8 = ratio;
    out << absl::StrFormat("%-8s %14s %10s %14s %10s %18s\n",
                           absl::StrCat(threads, " x 8"), fmt(c), fmt(1e6 / c),
                           fmt(s), fmt(1e6 / s), fmt(ratio));
    if (problems > 0) {
      out << "  warning: " << problems
          << " runs of the clean subject reported a finding\n";
    }
  }
  out << "\n";
  return ratio_2x8;
}

}  // namespace racelab::bench_internal
