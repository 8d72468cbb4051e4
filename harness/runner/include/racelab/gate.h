// The gate: runs every case of the registry in the requested modes, judges
// each against the expectation table in both directions, prints a table and
// writes the reports. Exit status 0 only when every expectation holds.
#ifndef RACELAB_GATE_H_
#define RACELAB_GATE_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/registry.h"
#include "racelab/runner.h"

namespace racelab {

// What the shards of a run split: its cases (a gate, a test binary's tests),
// or the schedules of one search (`racelab explore --shard` of a whole
// program: every shard holds the one case, and its first failing schedule is
// the schedule's index in the whole search).
enum class ShardSplit { kCases, kSchedules };

// What made a set of reports, which decides their vocabulary: a gate judges
// each case against its expectation (ok or a mismatch); `racelab explore`
// of a whole program, or of each test of a test binary (--tests), says what
// each search found (found, clean or verified). results.json records it as
// settings.run_kind ("gate", "explore", "explore_tests").
enum class RunKind { kGate, kExploreProgram, kExploreTests };
const char* to_string(RunKind kind);
std::optional<RunKind> parse_run_kind(std::string_view name);

struct GateOptions {
  std::vector<Mode> modes = {Mode::kStress};
  RunOptions run;           // mode is set per case
  int jobs = 2;             // cases run in parallel
  int controlled_runs = 1;  // controlled mode: searches per case
  // Show a line on the progress stream, written over in place as cases
  // finish (cases done, findings so far, the last case, runs and schedules
  // per second, time), and a line of its own for each case that failed; the
  // CLI turns it on only when that stream is a terminal.
  bool show_progress = false;
  std::string out_dir;         // empty: no files
  std::string subject_filter;  // substring; empty: all
  std::string scenario_filter;
  // --shard K/N: run the cases whose position i (from 0) in the gate's case
  // list (every mode in order, each in the registry's case order) has
  // i % N == K - 1. 1/1: all.
  int shard_index = 1;
  int shard_count = 1;
  ShardSplit shard_split = ShardSplit::kCases;
  // The run that wrote the folder, as results.json records it ("identity",
  // see run_identity); null: none recorded (a folder of an older racelab).
  nlohmann::json identity;
  RunKind run_kind = RunKind::kGate;
  // Polled before each case; true stops the gate: no case starts any more,
  // and a case still running when it turned true counts as not run.
  std::function<bool()> stop_requested;
};

// A case of the gate's list that was not run (the gate was interrupted).
struct PlannedCase {
  std::string family;
  std::string subject;
  std::string scenario;
  Mode mode = Mode::kStress;
  std::string expected;
  std::size_t index = 0;  // position in the gate's case list
  std::string source;     // the subject's source file (CaseSpec::source)
};

struct GateResult {
  std::vector<CaseResult> cases;
  int mismatches = 0;
  std::string harness_error;  // set when a case could not be run at all
  // Identifies this run in every report: UTC start time and 64 random bits,
  // "20250101T120000Z-0123456789abcdef".
  std::string run_id;
  // Position of cases[i] in the gate's case list (before --shard); empty
  // means 0, 1, 2, ...
  std::vector<std::size_t> case_index;
  std::size_t cases_total = 0;  // the case list's length, every shard
  // Stopped by a signal before every case of the shard finished: the cases
  // above finished before it; these did not.
  bool interrupted = false;
  int interrupt_signal = 0;
  std::vector<PlannedCase> not_run;
  // A result joined by `racelab merge`: the run ids of its shards.
  std::vector<std::string> merged_from;
};

// How many cases to run at once for a request of `requested`: at most two
// per core and what the available memory holds, at least one.
int usable_jobs(int requested);

// A new run id (see GateResult::run_id).
std::string make_run_id();

// How many cases the gate's list has (every shard): 0 when the filters match
// nothing.
std::size_t count_gate_cases(const Registry& registry,
                             const GateOptions& options);

// Runs the gate's cases (of its shard). Sets run_id when it is empty.
GateResult run_gate(const Registry& registry, const GateOptions& options,
                    std::ostream& progress);

// Prints the verdict table.
void print_gate_table(const GateResult& result, std::ostream& out);

// The settings of a gate that decide its verdicts (modes, runs, seed,
// controlled-mode strategy and budget, oracles, filters...), as results.json
// records them; shards are compatible when their settings are equal.
nlohmann::json gate_settings(const GateOptions& options);
// The inverse, for `racelab merge`. Throws nlohmann::json::exception.
void apply_gate_settings(const nlohmann::json& settings, GateOptions& options);

// What results.json records of the run that wrote it, beyond its settings
// ("identity"): the command ("gate", "explore", "explore --tests"); for
// explore, the program (its path, and a digest of its bytes: FNV-1a over
// the file, "" when it cannot be read) and its arguments byte for byte; the
// options that decide the verdicts (`options`, an object of scalars); and a
// fingerprint, 16 hex digits hashing all of it but the program's path.
// Shards of one run record the same identity, the path aside (a shard may
// run where the program is kept elsewhere); `racelab merge` refuses shards
// whose identities differ. `command` is empty for a gate; else the
// program, then its arguments.
nlohmann::json run_identity(const std::string& kind,
                            const std::vector<std::string>& command,
                            nlohmann::json options);

// A gate's identity: its kind and a digest of its case list (every shard's,
// in order), which tells apart the gates of two catalogs.
nlohmann::json gate_identity(const Registry& registry,
                             const GateOptions& options);

// The fingerprint of an identity (run_identity): over its kind, program
// digest, arguments and options.
std::string identity_fingerprint(const nlohmann::json& identity);

}  // namespace racelab

#endif  // RACELAB_GATE_H_
