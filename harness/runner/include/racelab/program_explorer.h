// `racelab explore -- ./program args`: controlled exploration of a whole
// program built with -fsanitize=thread and linked with racelab::runtime, one
// process tree per schedule, owned and ended by racelab (program_process.h;
// program_channel.h is how each run is told what to do and tells how far it
// got). The program is checked before anything runs (runtime_mark.h); its
// findings come from the sanitizer's own report stream and the channel,
// never from what the program prints.
#ifndef RACELAB_PROGRAM_EXPLORER_H_
#define RACELAB_PROGRAM_EXPLORER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"

namespace racelab {

struct ProgramExploreOptions {
  // The program (an absolute path after explore_program has resolved it)
  // and its arguments, kept byte for byte.
  std::vector<std::string> command;
  // Defaults: racelab/defaults.h (docs/defaults.md).
  std::string strategy = defaults::kStrategy;  // pct or random
  std::uint64_t seed = defaults::kSeed;        // schedule i uses seed + i
  int depth = defaults::kDepth;
  int budget = defaults::kProgramBudget;  // schedules (processes) at most
  int max_steps = 20000;
  int spin_bound = 64;
  int hang_seconds = defaults::kHangSeconds;  // no decision this long: hang
  // Where the failing schedule is saved; empty: a new file in racelab's
  // per-user folder ($XDG_STATE_HOME/racelab/schedules, else
  // ~/.local/state/racelab/schedules, created 0700).
  std::string schedule_path;
  // Asked between and during schedules: true stops the search (SIGINT or
  // SIGTERM); the schedules so far are reported.
  std::function<bool()> stop_requested;
  // Replay: follow these decisions once instead of exploring.
  bool replay = false;
  std::vector<int> replay_decisions;
};

// A thread of a schedule that blocked in the kernel outside every scheduling
// point (program_channel::BlockNote): the others ran on. A note, not a
// finding.
struct ProgramBlockNote {
  int schedule = 0;  // counted from 0
  int thread = -1;   // the logical thread
  int step = 0;      // the decision at which its turn was ended
  std::string where;
};

struct ProgramExploreResult {
  bool found() const { return !findings.empty(); }
  std::vector<Finding> findings;
  int schedules = 0;
  int first_failing = -1;
  std::vector<int> decisions;  // of the failing (or last) schedule
  std::string trace;           // its trace table, when the run got to end it
  std::string schedule_file;   // where the failing schedule was saved
  std::string output;          // the failing run's stdout and stderr, tails
  bool interrupted = false;    // stop_requested ended the search
  // A replay whose schedule ended before the program did (or that could not
  // be followed to its end): neither clean nor a finding.
  std::string inconclusive;
  // Unmodelled blocks of every schedule run (the first ones of each), and
  // how many there were in all.
  std::vector<ProgramBlockNote> unmodelled_blocks;
  int unmodelled_block_count = 0;
};

// Checks every input first (the program, the output path), then explores
// (or replays). Throws InputError with one line for a program that cannot be
// run or was not linked with racelab::runtime, and for a schedule path that
// cannot be written, before any schedule runs.
ProgramExploreResult explore_program(ProgramExploreOptions options);

// The text `racelab explore` prints for a result.
std::string describe(const ProgramExploreResult& result,
                     const ProgramExploreOptions& options);

}  // namespace racelab

#endif  // RACELAB_PROGRAM_EXPLORER_H_
