// `racelab bench`, search section: how long each mode takes to find the bug of
// every case the expectation table says must be caught. Every search runs in
// a child process (run_in_child, as `racelab run` does), in both modes: a
// buggy subject may crash or corrupt memory, and TSan reports a race once per
// process, so in-process searches would both risk the bench and hide repeats.
// Wall times therefore include starting the child; the baseline printed first
// is that cost alone.
#include <exception>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

struct Search {
  bool found = false;
  double steps = 0;  // schedules (controlled) or runs (stress) to the finding
  double seconds = 0;
  std::string error;  // the search could not run (e.g. InputError)
};

RunOptions base_options(const BenchOptions& options, Mode mode) {
  RunOptions run;
  run.request.mode = mode;
  run.self_exe = options.self_exe;
  run.run_timeout_ms = 60000;
  run.request.budget = options.budget;
  run.request.shrink = false;  // the time to the finding, not to its minimum
  return run;
}

Search controlled_search(const CaseSpec& spec, const BenchOptions& options,
                         const std::string& strategy, std::uint64_t seed) {
  RunOptions run = base_options(options, Mode::kControlled);
  run.request.seed = seed;
  run.request.strategy = strategy;
  const auto start = Clock::now();
  RunObservation record;
  Search s;
  try {
    record = run_in_child(spec, run, 0);
  } catch (const std::exception& e) {
    s.error = e.what();
    return s;
  }
  s.seconds = seconds_since(start);
  s.found = !record.findings.empty();
  s.steps =
      record.first_failing >= 0 ? record.first_failing + 1 : record.schedules;
  return s;
}

Search stress_search(const CaseSpec& spec, const BenchOptions& options,
                     std::uint64_t seed) {
  RunOptions run = base_options(options, Mode::kStress);
  run.request.seed = seed;
  Search s;
  const auto start = Clock::now();
  for (int i = 0; i < options.max_stress_runs && !s.found; ++i) {
    RunObservation record = run_in_child(spec, run, i);
    s.steps = i + 1;
    s.found = !record.findings.empty();
  }
  s.seconds = seconds_since(start);
  return s;
}

bool matches(const Expectation& e, const std::string& filter) {
  return filter.empty() || e.subject.find(filter) != std::string::npos ||
         e.scenario.find(filter) != std::string::npos;
}

void print_row(std::ostream& out, const std::string& name,
               const std::string& how, const std::vector<Search>& searches) {
  std::vector<double> steps, ms;
  for (const Search& s : searches) {
    if (!s.error.empty()) {
      out << absl::StrFormat(
                 "%-58s %-17s %s\n", name, how,
                 "not run: " + s.error.substr(s.error.find(": ") + 2))
          << std::flush;
      return;
    }
    if (!s.found) continue;
    steps.push_back(s.steps);
    ms.push_back(s.seconds * 1000);
  }
  out << absl::StrFormat("%-58s %-17s %7s %10s %10s\n", name, how,
                         absl::StrCat(steps.size(), "/", searches.size()),
                         steps.empty() ? "-" : fmt(median(steps)),
                         ms.empty() ? "-" : fmt(median(ms)))
      << std::flush;
}

}  // namespace

void first_finding_section(const Registry& registry,
                           const BenchOptions& options, std::ostream& out) {
  out << "== time to the first finding, every case that must be caught ==\n"
      << "child processes for every search (controlled: one child per search "
         "of up to "
      << options.budget
      << " schedules, no shrinking; stress: one child per run, up to "
      << options.max_stress_runs << " runs per seed); median over the seeds "
      << options.seed << ".." << options.seed + options.seeds - 1
      << " that found it; 'steps' = schedules (controlled) or runs (stress); "
         "wall time includes starting each child\n";
  // The baseline: a child that runs one schedule of a clean case.
  if (const CaseSpec* clean =
          registry.find_case("state/snapshot", "generated")) {
    RunOptions run = base_options(options, Mode::kControlled);
    run.request.budget = 1;
    run.request.strategy = "random";
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
      const auto start = Clock::now();
      run_in_child(*clean, run, 0);
      ms.push_back(seconds_since(start) * 1000);
    }
    out << "baseline: one child with one schedule of state/snapshot x "
           "generated: "
        << fmt(median(ms)) << " ms (median of 5)\n";
  }
  // A smoke test (--quick) times the first few cases only: every path of
  // the section runs, in seconds rather than minutes.
  constexpr int kQuickCases = 2;
  if (options.quick) {
    out << "(--quick: the first " << kQuickCases << " cases only)\n";
  }
  out << absl::StrFormat("%-58s %-17s %7s %10s %10s\n", "case", "mode", "found",
                         "steps", "wall ms");
  int cases = 0;
  for (const Expectation& e : registry.expectations()) {
    if (e.catches.empty() || !matches(e, options.case_filter)) continue;
    if (options.quick && cases++ == kQuickCases) break;
    const CaseSpec* spec = registry.find_case(e.subject, e.scenario);
    if (spec == nullptr) continue;
    const std::string name = absl::StrCat(e.subject, " x ", e.scenario);
    for (Mode mode : e.modes) {
      if (!spec->runs_in(mode)) continue;
      if (mode == Mode::kControlled) {
        for (const char* strategy : {"random", "pct", "dfs"}) {
          std::vector<Search> searches;
          for (int i = 0; i < options.seeds; ++i) {
            searches.push_back(
                controlled_search(*spec, options, strategy, options.seed + i));
          }
          print_row(out, name, absl::StrCat("controlled/", strategy), searches);
        }
      } else {
        std::vector<Search> searches;
        for (int i = 0; i < options.seeds; ++i) {
          searches.push_back(stress_search(*spec, options, options.seed + i));
        }
        print_row(out, name, "stress", searches);
      }
    }
  }
  out << "\n";
}

}  // namespace racelab::bench_internal
