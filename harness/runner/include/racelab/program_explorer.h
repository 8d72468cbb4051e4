// `racelab explore -- ./program args`: controlled exploration of a whole
// program built with -fsanitize=thread and linked with racelab::runtime, one
// process per schedule (program_channel.h is how each run is told what to
// do and tells how far it got).
#ifndef RACELAB_PROGRAM_EXPLORER_H_
#define RACELAB_PROGRAM_EXPLORER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"
#include "racelab/sched/schedule_file.h"

namespace racelab {

struct ProgramExploreOptions {
  std::vector<std::string> command;  // the program and its arguments
  // Defaults: racelab/defaults.h (docs/defaults.md).
  std::string strategy = defaults::kStrategy;  // pct or random
  std::uint64_t seed = defaults::kSeed;        // schedule i uses seed + i
  int depth = defaults::kDepth;
  int budget = defaults::kProgramBudget;  // schedules (processes) at most
  int max_steps = 20000;
  int spin_bound = 64;
  int hang_seconds = defaults::kHangSeconds;  // no decision this long: hang
  // Where the failing schedule is saved; empty: $TMPDIR (else /tmp)
  // /racelab-<program name>.schedule.
  std::string schedule_path;
  // Replay: follow these decisions once instead of exploring.
  bool replay = false;
  std::vector<int> replay_decisions;
};

struct ProgramExploreResult {
  bool found() const { return !findings.empty(); }
  std::vector<Finding> findings;
  int schedules = 0;
  int first_failing = -1;
  std::vector<int> decisions;  // of the failing (or last) schedule
  std::string trace;           // its trace table, when the run got to end it
  std::string schedule_file;   // where the failing schedule was saved
};

// Explores (or replays). Throws InputError with one line for a program that
// cannot be run or was not linked with racelab::runtime.
ProgramExploreResult explore_program(const ProgramExploreOptions& options);

// The text `racelab explore` prints for a result.
std::string describe(const ProgramExploreResult& result,
                     const ProgramExploreOptions& options);

// The schedule file of a whole-program schedule: mode "program", the
// command as keys arg.0, arg.1, ...; and back.
std::string program_schedule_text(const ProgramExploreOptions& options,
                                  const std::vector<int>& decisions);
// The command and decisions of a schedule file of mode "program" (read from
// `path`), into `options` (replay set). Throws InputError naming the file.
void program_schedule_options(const std::string& path,
                              const sched::ScheduleFile& file,
                              ProgramExploreOptions& options);

}  // namespace racelab

#endif  // RACELAB_PROGRAM_EXPLORER_H_
