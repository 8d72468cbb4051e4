// `racelab bench`, section "switch": the cost of one scheduling decision
// that switches threads, for each substrate (fibers of one OS thread, or
// baton-passing OS threads), and the 2 x 8 state program's controlled
// schedules per second on each, side by side in one run.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/sync.h"

namespace racelab::bench_internal {
namespace {

// Always switches to another enabled thread when there is one: every
// decision is a switch.
class AlternatingStrategy final : public sched::Strategy {
 public:
  std::string_view name() const override { return "alternate"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int current) override {
    for (int t : enabled) {
      if (t != current) return t;
    }
    return enabled.front();
  }
  bool end_schedule() override { return true; }
};

// Nanoseconds per decision: two threads of `points` yield points each.
double ns_per_switch(sched::Substrate substrate, int points, int ms) {
  sched::SchedulerOptions options;
  options.substrate = substrate;
  sched::ControlledScheduler scheduler(options);
  AlternatingStrategy strategy;
  const std::function<void()> body = [points] {
    for (int i = 0; i < points; ++i) yield_point("bench");
  };
  const std::vector<std::function<void()>> threads = {body, body};
  // Every run makes the same decisions.
  const double per_run =
      static_cast<double>(scheduler.run(threads, strategy).decisions.size());
  const double runs = per_second(ms, [&] { scheduler.run(threads, strategy); });
  return 1e9 / (runs * per_run);
}

}  // namespace

void switch_section(const BenchOptions& options, std::ostream& out) {
  out << "== a scheduling decision that switches threads, per substrate ==\n"
      << "two logical threads of 200 yield points each, a strategy that "
         "always switches; fibers: jump_fcontext on one OS thread; threads: "
         "a futex hand-off between real OS threads (no happens-before); "
         "median of "
      << kRounds << " alternating rounds of " << options.measure_ms
      << " ms per figure; then the 2 x 8 state program's controlled "
         "schedules per second on each substrate\n";
  std::vector<double> fibers, threads, fiber_rate, thread_rate;
  int problems = 0;
  const OracleSet oracles = OracleSet::selectable();
  for (int round = 0; round < kRounds; ++round) {
    fibers.push_back(
        ns_per_switch(sched::Substrate::kFibers, 200, options.measure_ms));
    threads.push_back(
        ns_per_switch(sched::Substrate::kOsThreads, 200, options.measure_ms));
    fiber_rate.push_back(controlled_rate(2, 8, oracles, options.measure_ms,
                                         options.seed, &problems,
                                         sched::Substrate::kFibers)
                             .per_wall_second);
    thread_rate.push_back(controlled_rate(2, 8, oracles, options.measure_ms,
                                          options.seed, &problems,
                                          sched::Substrate::kOsThreads)
                              .per_wall_second);
  }
  out << absl::StrFormat("%-10s %14s %16s\n", "substrate", "ns/switch",
                         "2x8 schedules/s");
  out << absl::StrFormat("%-10s %14s %16s\n", "fibers", fmt(median(fibers)),
                         fmt(median(fiber_rate)));
  out << absl::StrFormat("%-10s %14s %16s\n", "threads", fmt(median(threads)),
                         fmt(median(thread_rate)));
  out << absl::StrFormat("threads/fibers: %s x per switch, %s x per schedule\n",
                         fmt(median(threads) / median(fibers)),
                         fmt(median(fiber_rate) / median(thread_rate)));
  if (problems > 0) {
    out << "  warning: " << problems
        << " runs of the clean subject reported a finding\n";
  }
  out << "\n";
}

}  // namespace racelab::bench_internal
