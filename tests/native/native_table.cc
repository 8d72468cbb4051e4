// Prints, for every program of programs.h and every strategy, whether the
// buggy twin was found (and at which schedule) and whether the fixed twin
// stayed clean, as a Markdown table (docs/controlled-mode.md quotes it). The
// dfs column also says the smallest preemption bound (0, 1 or 2) within
// which dfs finds the buggy twin; a fixed twin whose dfs search is exhausted
// within 2 preemptions is `verified`.
//
//   racelab_native_table [budget]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "programs.h"
#include "racelab/explore.h"

namespace {

// "N" (the 1-based schedule of the first finding), "N (other kind)" or
// "not found".
std::string first_finding(const racelab::ExploreResult& result,
                          racelab::FindingKind kind) {
  if (!result.found()) return "not found";
  bool right = false;
  for (const auto& f : result.findings) right = right || f.kind == kind;
  return std::to_string(result.first_failing + 1) +
         (right ? "" : " (other kind)");
}

}  // namespace

int main(int argc, char** argv) {
  const int budget = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (budget < 1) {
    std::fprintf(stderr, "racelab_native_table: budget must be >= 1\n");
    return 2;
  }
  const char* strategies[] = {"pct", "random", "dfs"};
  std::printf(
      "| program | buggy finding | pct | random | dfs (preemption bound) | "
      "fixed twin |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& program : racelab::native_programs::programs()) {
    std::string row = std::string("| ") + program.name + " | " +
                      racelab::to_string(program.buggy_finding) + " |";
    std::string fixed_cells;
    for (const char* strategy : strategies) {
      racelab::ExploreOptions options;
      options.strategy = strategy;
      options.budget = budget;
      options.name = std::string("table-") + program.name;
      const bool dfs = std::string(strategy) == "dfs";
      if (dfs) {
        // The smallest bound within which dfs finds it, up to the default.
        std::string cell = "not found";
        for (int bound = 0; bound <= options.preemptions; ++bound) {
          racelab::ExploreOptions bounded = options;
          bounded.preemptions = bound;
          const auto buggy =
              racelab::explore([&] { program.run(false); }, bounded);
          if (!buggy.found()) continue;
          cell = first_finding(buggy, program.buggy_finding) + " (" +
                 std::to_string(bound) + ")";
          break;
        }
        row += " " + cell + " |";
      } else {
        const auto buggy =
            racelab::explore([&] { program.run(false); }, options);
        row += " " + first_finding(buggy, program.buggy_finding) + " |";
      }
      const auto fixed = racelab::explore([&] { program.run(true); }, options);
      fixed_cells +=
          std::string(strategy) + ": " +
          (fixed.found()
               ? "FOUND " +
                     std::string(racelab::to_string(fixed.findings[0].kind))
           : fixed.exhausted
               ? "verified (all " + std::to_string(fixed.schedules) +
                     " within " + std::to_string(options.preemptions) +
                     " preemptions)"
               : "clean (" + std::to_string(fixed.schedules) + ")") +
          (dfs ? "" : ", ");
    }
    std::printf("%s %s |\n", row.c_str(), fixed_cells.c_str());
    std::fflush(stdout);
  }
  return 0;
}
