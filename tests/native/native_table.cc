// Prints, for every program of programs.h and every strategy, whether the
// buggy twin was found (and at which schedule) and whether the fixed twin
// stayed clean, as a Markdown table (docs/controlled-mode.md quotes it).
//
//   racelab_native_table [budget]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "programs.h"
#include "racelab/explore.h"

int main(int argc, char** argv) {
  const int budget = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (budget < 1) {
    std::fprintf(stderr, "racelab_native_table: budget must be >= 1\n");
    return 2;
  }
  const char* strategies[] = {"pct", "random", "dfs"};
  std::printf(
      "| program | buggy finding | pct | random | dfs | fixed twin |\n");
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
      const auto buggy = racelab::explore([&] { program.run(false); }, options);
      bool right = false;
      for (const auto& f : buggy.findings) {
        right = right || f.kind == program.buggy_finding;
      }
      row += buggy.found() ? " " + std::to_string(buggy.first_failing + 1) +
                                 (right ? "" : " (other kind)") + " |"
                           : " not found |";
      const auto fixed = racelab::explore([&] { program.run(true); }, options);
      fixed_cells += std::string(strategy) + ": " +
                     (fixed.found() ? "FOUND " + std::string(racelab::to_string(
                                                     fixed.findings[0].kind))
                      : fixed.exhausted
                          ? "all " + std::to_string(fixed.schedules) +
                                " within 2 preemptions"
                          : "clean (" + std::to_string(fixed.schedules) + ")") +
                     (std::string(strategy) == "dfs" ? "" : ", ");
    }
    std::printf("%s %s |\n", row.c_str(), fixed_cells.c_str());
    std::fflush(stdout);
  }
  return 0;
}
