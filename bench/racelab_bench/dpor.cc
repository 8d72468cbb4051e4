// `racelab bench`, dpor section: schedules explored by plain dfs (every
// schedule within the preemption bound) and by dfs with partial-order
// reduction, for every seed scenario (the catalog's named scenarios, not the
// generated ones) at controlled size and every subject, with the verdict of
// each, which must be the same: a mismatch is printed loudly. Each search
// runs in a child process, as `racelab run` does; it stops at the first
// finding (no shrinking) or when the search is exhausted or its budget spent.
#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/expectation.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

struct Exploration {
  int schedules = 0;
  bool exhausted = false;
  bool found = false;
  double seconds = 0;
  std::string kinds;  // what the search found, "" when clean
  std::string error;
};

Exploration explore(const CaseSpec& spec, const BenchOptions& options,
                    const char* strategy) {
  RunOptions run;
  run.request.mode = Mode::kControlled;
  run.self_exe = options.self_exe;
  run.run_timeout_ms = 600000;
  run.request.strategy = strategy;
  run.request.preemptions = options.preemptions;
  run.request.budget = options.dpor_budget;
  run.request.seed = options.seed;
  run.request.shrink = false;
  Exploration e;
  const auto start = Clock::now();
  try {
    RunObservation record = run_in_child(spec, run, 0);
    e.seconds = seconds_since(start);
    e.found = !record.findings.empty();
    e.schedules = e.found ? record.first_failing + 1 : record.schedules;
    e.exhausted = record.exhaustive;
    for (const Finding& f : record.findings) {
      const std::string kind(to_string(f.kind));
      if (e.kinds.find(kind) == std::string::npos) {
        e.kinds += (e.kinds.empty() ? "" : ",") + kind;
      }
    }
  } catch (const std::exception& ex) {
    e.error = ex.what();
  }
  return e;
}

// What the search concluded: "verified" (exhausted, clean), "clean" (the
// budget ran out first) or "caught".
std::string verdict(const Exploration& e) {
  if (!e.error.empty()) return "error";
  if (e.found) return "caught";
  return e.exhausted ? "verified" : "clean";
}

}  // namespace

void dpor_section(const Registry& registry, const BenchOptions& options,
                  std::ostream& out) {
  out << "== schedules explored: plain dfs against dfs with partial-order "
         "reduction ==\n"
      << "every subject x seed scenario, controlled mode, preemption bound "
      << options.preemptions << ", up to " << options.dpor_budget
      << " schedules per search, seed " << options.seed
      << ", no shrinking; a search stops at its first finding; "
         "'verified' = exhausted and clean; ratio = plain / dpor (>= when "
         "plain dfs ran out of budget)\n";
  out << absl::StrFormat("%-58s %9s %-9s %9s %-9s %8s %s\n", "case", "plain",
                         "verdict", "dpor", "verdict", "ratio", "found");
  int mismatches = 0;
  double product = 1;
  int rows = 0;
  for (const Expectation& e : registry.expectations()) {
    if (e.scenario == "generated" || !matches_filter(e, options.case_filter)) {
      continue;
    }
    bool controlled = false;
    for (Mode m : e.modes) controlled = controlled || m == Mode::kControlled;
    const CaseSpec* spec = registry.find_case(e.subject, e.scenario);
    if (!controlled || spec == nullptr || !spec->runs_in(Mode::kControlled)) {
      continue;
    }
    const Exploration plain = explore(*spec, options, "plain-dfs");
    const Exploration reduced = explore(*spec, options, "dfs");
    const std::string name = absl::StrCat(e.subject, " x ", e.scenario);
    if (!plain.error.empty() || !reduced.error.empty()) {
      out << absl::StrFormat("%-58s not run: %s\n", name,
                             plain.error.empty() ? reduced.error : plain.error);
      continue;
    }
    const double ratio =
        static_cast<double>(plain.schedules) / std::max(reduced.schedules, 1);
    // Both searches must conclude the same where both concluded; a search
    // whose budget ran out first ("clean") concluded nothing.
    auto concluded = [](const Exploration& x) { return verdict(x) != "clean"; };
    const bool same = !concluded(plain) || !concluded(reduced) ||
                      verdict(plain) == verdict(reduced);
    if (!same) ++mismatches;
    product *= ratio;
    ++rows;
    out << absl::StrFormat(
               "%-58s %9d %-9s %9d %-9s %8s %s%s\n", name, plain.schedules,
               verdict(plain), reduced.schedules, verdict(reduced),
               absl::StrCat(plain.exhausted || plain.found ? "" : ">=",
                            fmt(ratio)),
               reduced.kinds.empty() ? "-" : reduced.kinds,
               same ? "" : "   <<< MISMATCH: the verdicts differ")
        << std::flush;
  }
  if (rows > 0) {
    out << "dpor: geometric mean ratio " << fmt(std::pow(product, 1.0 / rows))
        << " over " << rows << " cases; " << mismatches
        << " verdict mismatches\n";
  }
  if (mismatches > 0) {
    out << "!!! DPOR MISMATCH: " << mismatches
        << " cases where plain dfs and dpor disagree !!!\n";
  }
  out << "\n";
}

}  // namespace racelab::bench_internal
