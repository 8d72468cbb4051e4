// The gate: runs every case of the registry in the requested modes, judges
// each against the expectation table in both directions, prints a table and
// writes the reports. Exit status 0 only when every expectation holds.
#ifndef RACELAB_GATE_H_
#define RACELAB_GATE_H_

#include <ostream>
#include <string>
#include <vector>

#include "racelab/registry.h"
#include "racelab/runner.h"

namespace racelab {

struct GateOptions {
  std::vector<Mode> modes = {Mode::kStress};
  RunOptions run;           // mode is set per case
  int jobs = 2;             // cases run in parallel
  int controlled_runs = 1;  // controlled mode: searches per case
  // Print a line per finished case (cases done, findings so far, runs and
  // schedules per second) on the progress stream; the CLI turns it on only
  // when that stream is a terminal.
  bool show_progress = false;
  std::string out_dir;         // empty: no files
  std::string subject_filter;  // substring; empty: all
  std::string scenario_filter;
};

struct GateResult {
  std::vector<CaseResult> cases;
  int mismatches = 0;
  std::string harness_error;  // set when a case could not be run at all
};

// How many cases to run at once for a request of `requested`: at most two
// per core and what the available memory holds, at least one.
int usable_jobs(int requested);

GateResult run_gate(const Registry& registry, const GateOptions& options,
                    std::ostream& progress);

// Prints the verdict table.
void print_gate_table(const GateResult& result, std::ostream& out);

// Writes out_dir/results.json (creating the directory). Throws on I/O errors.
void write_results_json(const GateResult& result, const GateOptions& options,
                        const std::string& out_dir);

}  // namespace racelab

#endif  // RACELAB_GATE_H_
