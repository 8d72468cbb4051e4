// `racelab bench`, first section: controlled mode (fibers, one OS thread, a
// random strategy) against stress mode (real threads, spawned and joined for
// every run) on the same fixed state program, in process, with the same
// oracles and no child-process overhead. Both run the state spec's case
// runner (racelab/spec.h: spec_case_runner), as the catalog's cases do.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/spec.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace racelab::bench_internal {
namespace {

// Schedules per controlled request: the scheduler is set up once per request.
constexpr int kSchedulesPerRequest = 16;

// `threads` x `ops` operations over three keys: each thread cycles through
// set, get, set, all on key (thread + i) % 3, with values unique per
// operation; the setup sets the three keys, the finale reads everything.
Plan fixed_program(int threads, int ops) {
  Plan p;
  for (int k = 0; k < 3; ++k) {
    p.setup.push_back(call("set", absl::StrCat("k", k), "init"));
  }
  for (int t = 0; t < threads; ++t) {
    std::vector<PlannedCall> list;
    for (int i = 0; i < ops; ++i) {
      const std::string key = absl::StrCat("k", (t + i) % 3);
      switch (i % 4) {
        case 0:
        case 2:
          list.push_back(call("set", key, absl::StrCat(t, ".", i)));
          break;
        case 1:
          list.push_back(call("get", key));
          break;
        default:
          list.push_back(call("all", state::AllFlags{}));
          break;
      }
    }
    p.threads.push_back(std::move(list));
  }
  p.finale.push_back(call("all", state::AllFlags{}));
  return p;
}

// The fixed program's runs on state/snapshot.
std::function<RunObservation(const RunRequest&)> fixed_runner(int threads,
                                                              int ops) {
  const std::string name = absl::StrCat("bench_", threads, "x", ops);
  state::StateSpec spec = state::state_spec();
  for (const auto& entry : state_subjects()) {
    if (std::string(entry.variant) == "snapshot") spec.make(entry.make);
  }
  spec.scenario(name, fixed_program(threads, ops), "the bench's fixed program");
  return spec_case_runner(spec, name);
}

}  // namespace

Rate controlled_rate(int threads, int ops, OracleSet oracles, int ms,
                     std::uint64_t seed, int* problems,
                     sched::Substrate substrate) {
  const auto run = fixed_runner(threads, ops);
  RunRequest request;
  request.mode = Mode::kControlled;
  request.oracles = oracles;
  request.strategy = "random";
  request.threads = substrate;
  request.seed = seed;
  request.budget = kSchedulesPerRequest;
  long schedules = 0;
  const Measured m = measure(ms, [&] {
    RunObservation outcome = run(request);
    if (!outcome.findings.empty()) ++*problems;
    schedules += outcome.schedules;
    ++request.seed;
  });
  // measure() warms up with three requests that it does not count.
  const double per_request =
      static_cast<double>(schedules) / static_cast<double>(m.calls + 3);
  const double counted = per_request * static_cast<double>(m.calls);
  return {counted / m.wall_s, counted / m.cpu_s};
}

Rate stress_rate(int threads, int ops, OracleSet oracles, int ms,
                 std::uint64_t seed, int* problems) {
  const auto run = fixed_runner(threads, ops);
  RunRequest request;
  request.mode = Mode::kStress;
  request.oracles = oracles;
  request.jitter = false;
  request.seed = seed;
  const Measured m = measure(ms, [&] {
    RunObservation obs = run(request);
    if (!obs.findings.empty()) ++*problems;
    ++request.seed;
  });
  return {m.per_second(), static_cast<double>(m.calls) / m.cpu_s};
}

void throughput_section(const BenchOptions& options, std::ostream& out) {
  const OracleSet oracles =
      OracleSet::selectable();  // all on; tsan is the build's own (no reports
                                // expected)
  out << "== controlled vs stress: the same fixed program, in process ==\n"
      << "subject state/snapshot; each thread cycles set/get/set/all over 3 "
         "keys; oracles "
      << to_string(oracles) << "; controlled = the spec's case runner, "
      << kSchedulesPerRequest
      << " schedules a request, random strategy (fibers on one OS thread), "
         "stress = the same runner in stress mode (threads spawned and "
         "joined every run, no jitter); no child processes; "
      << kRounds << " alternating rounds of " << options.measure_ms
      << " ms per figure: median (range). us = microseconds of wall time; "
         "cpu us = of CPU time (all threads), which the machine's load does "
         "not inflate\n";
  out << absl::StrFormat("%-8s %12s %10s %10s %12s %10s %10s %22s\n", "program",
                         "controlled/s", "us/sched", "cpu us", "stress/s",
                         "us/run", "cpu us", "controlled/stress cpu");
  for (int threads : {2, 4}) {
    // Alternating rounds: the two modes see the same machine load (other
    // jobs) as far as possible.
    int problems = 0;
    std::vector<double> cs, c_cpu, ss, s_cpu, ratio;
    for (int round = 0; round < kRounds; ++round) {
      const Rate c = controlled_rate(threads, 8, oracles, options.measure_ms,
                                     options.seed, &problems);
      const Rate s = stress_rate(threads, 8, oracles, options.measure_ms,
                                 options.seed, &problems);
      cs.push_back(c.per_wall_second);
      c_cpu.push_back(1e6 / c.per_cpu_second);
      ss.push_back(s.per_wall_second);
      s_cpu.push_back(1e6 / s.per_cpu_second);
      ratio.push_back(c.per_cpu_second / s.per_cpu_second);
    }
    const double c = median(cs);
    const double s = median(ss);
    out << absl::StrFormat("%-8s %12s %10s %10s %12s %10s %10s %22s\n",
                           absl::StrCat(threads, " x 8"), fmt(c), fmt(1e6 / c),
                           fmt(median(c_cpu)), fmt(s), fmt(1e6 / s),
                           fmt(median(s_cpu)), median_and_range(ratio));
    if (problems > 0) {
      out << "  warning: " << problems
          << " runs of the clean subject reported a finding\n";
    }
  }
  out << "\n";
}

}  // namespace racelab::bench_internal
