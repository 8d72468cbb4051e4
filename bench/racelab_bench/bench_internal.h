// Shared pieces of `racelab bench` (bench.h): timing, medians, table cells,
// and the sections run_bench puts together.
#ifndef RACELAB_HARNESS_SRC_BENCH_BENCH_INTERNAL_H_
#define RACELAB_HARNESS_SRC_BENCH_BENCH_INTERNAL_H_

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bench.h"
#include "racelab/expectation.h"
#include "racelab/internal/case.h"
#include "racelab/registry.h"

namespace racelab::bench_internal {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Throughput figures are the median of this many rounds, alternating between
// the configurations compared, so that they see the same machine load.
inline constexpr int kRounds = 3;

// The median of `values` (0 for none).
double median(std::vector<double> values);

// CPU seconds of this process and of its children that have been reaped
// (getrusage). Unlike wall time, it does not grow with the machine's load.
double cpu_seconds();

// What a measurement loop did: calls, and the wall and CPU seconds they took.
struct Measured {
  long calls = 0;
  double wall_s = 0;
  double cpu_s = 0;
  double per_second() const { return static_cast<double>(calls) / wall_s; }
};

// Calls `fn` a few times to warm up, then until `ms` milliseconds of wall
// time have passed.
template <class Fn>
Measured measure(int ms, Fn fn) {
  for (int i = 0; i < 3; ++i) fn();
  const double cpu = cpu_seconds();
  const auto start = Clock::now();
  Measured m;
  do {
    fn();
    ++m.calls;
    m.wall_s = seconds_since(start);
  } while (m.wall_s * 1000 < ms);
  m.cpu_s = cpu_seconds() - cpu;
  return m;
}

// Calls `fn` once (work measured as a whole, such as a batch of child runs)
// and says what it took.
template <class Fn>
Measured measure_once(Fn fn) {
  const double cpu = cpu_seconds();
  const auto start = Clock::now();
  fn();
  return {1, seconds_since(start), cpu_seconds() - cpu};
}

// Calls per second of wall time (see measure).
template <class Fn>
double per_second(int ms, Fn fn) {
  return measure(ms, fn).per_second();
}

// "4.21 (3.90-4.60)": the median of `values` and their range, for figures
// measured once per round.
std::string median_and_range(const std::vector<double>& values);

// "12345", "12.3", "0.123": three significant digits for small numbers.
std::string fmt(double value);

// A rate in wall time and in CPU time: units (schedules or runs) per second
// of each.
struct Rate {
  double per_wall_second = 0;
  double per_cpu_second = 0;
};

// Schedules (controlled) or runs (stress) per second of the fixed state
// program of `threads` x `ops` operations on state/snapshot, in process, with
// `oracles` (the sanitizer oracle is the process's own: see oracle_section).
// `problems` counts runs that reported a finding (there should be none).
Rate controlled_rate(int threads, int ops, OracleSet oracles, int ms,
                     std::uint64_t seed, int* problems,
                     sched::Substrate substrate = sched::Substrate::kFibers);
Rate stress_rate(int threads, int ops, OracleSet oracles, int ms,
                 std::uint64_t seed, int* problems);

// The throughput of the fixed state programs (in process, subject
// state/snapshot), in wall and CPU time.
void throughput_section(const BenchOptions& options, std::ostream& out);

// Controlled mode against stress mode as `racelab gate` runs them (a child
// process per case, the gate's budget and runs), in CPU time per schedule
// and per run, round by round. Returns the line that ends the bench.
std::string gate_ratio_section(const Registry& registry,
                               const BenchOptions& options, std::ostream& out);

// Schedules per second with each in-process oracle off, and tsan's cost
// through child processes.
void oracle_section(const Registry& registry, const BenchOptions& options,
                    std::ostream& out);

// Schedules and wall time to the first finding of every buggy case.
void first_finding_section(const Registry& registry,
                           const BenchOptions& options, std::ostream& out);

// The cost of a switching decision and the 2 x 8 program's schedules per
// second, fibers against OS threads.
void switch_section(const BenchOptions& options, std::ostream& out);
// The cost of a stress run's child process: one per run, shared, in process.
void startup_section(const Registry& registry, const BenchOptions& options,
                     std::ostream& out);

// Schedules explored by plain dfs and by dfs with partial-order reduction,
// every subject x seed scenario, with their verdicts side by side.
void dpor_section(const Registry& registry, const BenchOptions& options,
                  std::ostream& out);

// Whether a row of the table is one `filter` (a substring of its subject or
// scenario; empty: all) selects.
bool matches_filter(const Expectation& e, const std::string& filter);

// libFuzzer exec/s of every fuzz target that is built.
void fuzz_section(const BenchOptions& options, std::ostream& out);

// A whole program's schedules per second: fresh processes, the fork server,
// the bare start, in process (programs.cc).
void programs_section(const BenchOptions& options, std::ostream& out);
// Thread-heavy whole programs under explore beside a plain run
// (threads.cc).
void threads_section(const BenchOptions& options, std::ostream& out);
// A program built beside racelab: build/<preset>/racelab and `relative`
// ("tests/native/racelab_native_program") -> build/<preset>/<relative>; ""
// when racelab's own path cannot be resolved.
std::string built_beside(const std::string& self_exe,
                         const std::string& relative);
void memory_model_section(const Registry& registry, const BenchOptions& options,
                          std::ostream& out);

}  // namespace racelab::bench_internal

#endif  // RACELAB_HARNESS_SRC_BENCH_BENCH_INTERNAL_H_
