// `racelab bench`, section "memory": what the memory-model mode costs, side
// by side in one run: schedules per second of the same searches with and
// without it, for two catalog cases in a child process (a lock-free store,
// whose loads may read older stores, and a mutex store, with few atomics)
// and for a whole program (the litmus suite's IRIW, four threads of
// relaxed atomics, under `racelab explore` with its fork server). random
// strategy, no shrinking; median of alternating rounds.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/program_explorer.h"
#include "racelab/runner.h"

namespace racelab::bench_internal {
namespace {

namespace fs = std::filesystem;

// Schedules per second of one search of `spec` (a child process).
double case_rate(const CaseSpec& spec, const BenchOptions& options,
                 int schedules, bool memory_model, int* problems) {
  RunOptions run;
  run.request.mode = Mode::kControlled;
  run.self_exe = options.self_exe;
  run.run_timeout_ms = 600000;
  run.request.strategy = "random";
  run.request.budget = schedules;
  run.request.seed = options.seed;
  run.request.shrink = false;
  run.request.memory_model = memory_model;
  RunObservation record;
  const Measured m = measure_once([&] { record = run_in_child(spec, run, 0); });
  if (!record.findings.empty()) ++(*problems);
  return record.schedules / m.wall_s;
}

double program_rate(const std::string& path, const BenchOptions& options,
                    int schedules, bool memory_model, int* problems) {
  ProgramExploreOptions explore;
  // An outcome no run reaches: every schedule runs to its end.
  explore.command = {path, "IRIW", "relaxed", "none"};
  explore.strategy = "random";
  explore.seed = options.seed;
  explore.budget = schedules;
  explore.fork_server = ForkServerUse::kOn;
  explore.memory_model = memory_model;
  ProgramExploreResult result;
  const Measured m = measure_once([&] { result = explore_program(explore); });
  if (result.found()) ++(*problems);
  return result.search.schedules / m.wall_s;
}

}  // namespace

void memory_model_section(const Registry& registry, const BenchOptions& options,
                          std::ostream& out) {
  const int schedules = options.quick ? 20 : 300;
  out << "== memory: schedules per second without and with the memory-model "
         "mode (--memory-model), random, "
      << schedules << " schedules a search, median of " << kRounds
      << " alternating rounds ==\n";
  if (!built_with_tsan()) {
    out << "  the mode sees atomics through TSan's entry points: a TSan "
           "build only\n\n";
    return;
  }
  struct Row {
    std::string name;
    std::vector<double> without, with;
  };
  std::vector<Row> rows;
  std::vector<const CaseSpec*> cases;
  for (const char* subject : {"checkpoint/lock_free", "checkpoint/mutex"}) {
    if (const CaseSpec* spec =
            registry.find_case(subject, "same_session_first_commit")) {
      cases.push_back(spec);
      rows.push_back(
          {std::string(subject) + " x same_session_first_commit", {}, {}});
    }
  }
  const std::string program =
      built_beside(options.self_exe, "tests/litmus/racelab_litmus_program");
  std::error_code ec;
  const bool have_program = fs::is_regular_file(program, ec);
  if (have_program) {
    rows.push_back({"litmus IRIW relaxed (whole program)", {}, {}});
  }
  int problems = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      rows[i].without.push_back(
          case_rate(*cases[i], options, schedules, false, &problems));
      rows[i].with.push_back(
          case_rate(*cases[i], options, schedules, true, &problems));
    }
    if (have_program) {
      rows.back().without.push_back(
          program_rate(program, options, schedules, false, &problems));
      rows.back().with.push_back(
          program_rate(program, options, schedules, true, &problems));
    }
  }
  out << absl::StrFormat("  %-50s %12s %12s %8s\n", "search", "without", "with",
                         "with/without");
  for (const Row& row : rows) {
    const double without = median(row.without);
    const double with = median(row.with);
    out << absl::StrFormat("  %-50s %9s/s %9s/s %8.2f\n", row.name,
                           fmt(without), fmt(with), with / without);
  }
  if (!have_program) {
    out << "  no litmus program at '" << program << "'\n";
  }
  if (problems > 0) out << "  " << problems << " searches reported a finding\n";
  out << "\n";
}

}  // namespace racelab::bench_internal
