// A case: subject x scenario x mode, type-erased so the engine can run any
// family. Scenario catalogs build cases; the engine never sees a family type.
#ifndef RACELAB_CASE_H_
#define RACELAB_CASE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"
#include "racelab/oracle.h"

namespace racelab {

enum class Mode { kStress, kControlled };
const char* to_string(Mode mode);

// How one run of a case executes.
struct RunRequest {
  Mode mode = Mode::kStress;
  std::uint64_t seed = 1;
  int run_index = 0;
  // Stress mode: random jitter (sched_yield or a short sleep) at operation
  // boundaries and scheduling points, and the length of a reader's pause.
  bool jitter = false;
  int pause_us = 50;
  // Which oracles judge the run. The sanitizer oracles are those of the build
  // (tsan in the TSan build, asan in the ASan build); leaving tsan out makes
  // the child run with TSan's reports disabled.
  OracleSet oracles = OracleSet::selectable();

  // Controlled mode: the strategy and its parameters, how many schedules to
  // try, and (for replay) the recorded schedule to follow.
  std::string strategy = "pct";
  int depth = 3;
  int preemptions = 2;
  int budget = 1000;
  bool shrink = true;
  std::vector<int> replay_decisions;
  std::vector<std::string>
      replay_program;  // "setup", threads..., "finale" lines
};

// A schedule as recorded: the program (encoded lines, setup first, finale
// last) and the decision at every scheduling point.
struct RecordedSchedule {
  std::vector<std::string> program;
  std::vector<int> decisions;
  int preemptions = 0;
};

// One row of a controlled run's trace.
struct TraceLine {
  int step = 0;
  int thread = 0;
  std::string kind;
  std::string text;
};

// What one run observed, before the sanitizer findings of the process are
// added.
struct RunObservation {
  std::vector<Finding> findings;
  int operations = 0;
  // Controlled mode.
  int schedules = 0;          // schedules tried
  int first_failing = -1;     // 0-based index of the first failing schedule
  RecordedSchedule schedule;  // the (shrunk) failing schedule
  int trace_threads = 0;
  std::vector<TraceLine> trace;
  std::string trace_table;  // the trace as a table, for humans
};

struct CaseSpec {
  std::string family;    // "checkpoint"
  std::string subject;   // "checkpoint/unsynchronized"
  std::string scenario;  // "seed_concurrent_sessions"
  std::function<RunObservation(const RunRequest&)> run;
  std::vector<Mode> modes = {Mode::kStress, Mode::kControlled};
  // Checks one line of a recorded program (setup, a thread or the finale)
  // before a replay starts: empty when every operation on it is one of the
  // family's, else what is wrong. Unset: lines are checked by the run only.
  std::function<std::string(std::string_view line)> check_program_line =
      nullptr;
  // The subject's source file, from its catalog entry (Registry::add_case
  // fills it in): where reports place findings that have no frame.
  std::string source = {};

  bool runs_in(Mode mode) const {
    for (Mode m : modes) {
      if (m == mode) return true;
    }
    return false;
  }
};

// A subject or scenario as listed by `racelab list`.
struct CatalogEntry {
  std::string family;
  std::string name;  // subjects: family/variant
  std::string description;
  std::string source;  // subjects: repo-relative file
  bool buggy = false;  // subjects only
};

// One walk-through of `racelab demo`: an anti-pattern of a catalog, the
// buggy and the fixed subject that show it, the scenario that breaks it, and
// the texts that explain it. Catalogs register them beside their subjects.
struct AntiPattern {
  std::string name;   // "check-then-act"
  std::string buggy;  // subject
  std::string fixed;  // subject
  std::string scenario;
  std::string marker;   // the excerpt centres on the first line with this
  std::string summary;  // one line, for the list
  std::string story;    // what goes wrong
  std::string oracles;  // which oracle sees it, and why the others do not
};

}  // namespace racelab

#endif  // RACELAB_CASE_H_
