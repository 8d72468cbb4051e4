// `racelab explore -- ./program args`: controlled exploration of a whole
// program built with -fsanitize=thread and linked with racelab::runtime, by
// the engine's one search (controlled_internal::explore: every strategy,
// dfs's `verified` included, shrinking, the typed trace). Each schedule is one
// process tree, owned and ended by racelab (program_process.h), whose
// scheduler asks racelab's strategy for every decision (remote_strategy.h,
// program_channel.h). The program is checked before anything runs
// (runtime_mark.h); its findings come from the sanitizer's own report stream
// and the channel, never from what the program prints.
#ifndef RACELAB_PROGRAM_EXPLORER_H_
#define RACELAB_PROGRAM_EXPLORER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/runner.h"

namespace racelab {

// How the schedules' processes start. kAuto: one process is started and
// stopped before main, and every schedule runs in a copy of it (a fork
// server), unless the program cannot be copied there (threads or open
// descriptors before main): then a fresh process per schedule, said once
// in the result's notes. kOn: the fork server or an InputError. kOff: a
// fresh process per schedule.
enum class ForkServerUse { kAuto, kOn, kOff };
std::optional<ForkServerUse> fork_server_use_named(std::string_view name);

struct ProgramExploreResult;

struct ProgramExploreOptions {
  // The program (an absolute path after explore_program has resolved it)
  // and its arguments, kept byte for byte.
  std::vector<std::string> command;
  // Defaults: racelab/defaults.h (docs/defaults.md).
  // pct, random, dfs or plain-dfs (sched::make_strategy).
  std::string strategy = defaults::kStrategy;
  std::uint64_t seed = defaults::kSeed;
  int depth = defaults::kDepth;
  int preemptions = defaults::kPreemptions;  // dfs: -1 for no bound
  bool shrink = true;  // the failing schedule to its fewest preemptions
  int budget = defaults::kProgramBudget;  // schedules (processes) at most
  int max_steps = 20000;
  int spin_bound = 64;
  // The memory-model mode (sched::SchedulerOptions::memory_model).
  bool memory_model = false;
  int hang_seconds = defaults::kHangSeconds;  // no decision this long: hang
  // Where the failing schedule is saved; empty: a new file in racelab's
  // per-user folder ($XDG_STATE_HOME/racelab/schedules, else
  // ~/.local/state/racelab/schedules, created 0700).
  std::string schedule_path;
  // Asked between and during schedules: true stops the search (SIGINT or
  // SIGTERM); the schedules so far are reported, and a finding being shrunk
  // as it was found.
  std::function<bool()> stop_requested;
  ForkServerUse fork_server = ForkServerUse::kAuto;
  // pct, random: schedules run at once (one process each, a fork server
  // each), and the shard K/N of the search to run (schedules i with
  // i % N == K - 1). The first failing schedule, the verdict and the saved
  // schedule are the same for any number of jobs.
  int jobs = 1;
  int shard_index = 1;
  int shard_count = 1;
  // Called with the first failing schedule as found (ProgramExploreResult::
  // search: its findings, first_failing, the schedules so far), once its
  // schedule file is written and before it is shrunk (describe_found).
  std::function<void(const ProgramExploreResult& found)> on_found;
  // Called after each schedule the search, or the shrink of its finding,
  // ran (from the thread that ran it): the schedules run so far, and
  // whether the finding is being shrunk. For a progress line.
  std::function<void(int runs, bool shrinking)> on_progress;
  // Replay: follow these decisions once instead of exploring.
  bool replay = false;
  std::vector<int> replay_decisions;
  // Replay: the running thread's call stack at every decision
  // (ProgramExploreResult::stacks).
  bool stacks = false;
};

struct ProgramExploreResult {
  bool found() const { return !search.findings.empty(); }
  // The search as the engine reports it: findings, schedules, the first
  // failing one, the (shrunk) failing schedule with its trace, exhaustive
  // (dfs searched every schedule that matters: verified), the unmodelled
  // blocks; `log` holds the failing run's stdout and stderr, tails.
  RunObservation search;
  std::string schedule_file;  // where the failing schedule was saved
  // Why the failing schedule could not be saved (a full disk, say); the
  // finding stands. With schedule_file set, that file holds the schedule
  // as found and only its shrunk form was lost.
  std::string save_error;
  // stop_requested ended the search; with a finding, its shrink: the
  // finding and its saved schedule are as found.
  bool interrupted = false;
  // A replay whose schedule ended before the program did: neither clean nor
  // a finding.
  std::string inconclusive;
  // With ProgramExploreOptions::stacks: one paragraph per decision, the
  // program's text (untrusted, bounded); stacks_cut: it filled its room.
  std::string stacks;
  bool stacks_cut = false;
  // Schedules run in copies of one started process (ForkServerUse); the
  // rest, if any, in fresh processes.
  int forked_schedules = 0;
  // The program as run: its full path (the command's first word, resolved
  // through PATH).
  std::string program;
  // Wall time of the search and its shrink, measured around them.
  std::chrono::nanoseconds wall_time{0};
};

// Checks every input first (the program, the output path), then explores
// (or replays). Throws InputError with one line for a program that cannot be
// run or was not linked with racelab::runtime, and for a schedule path that
// cannot be written, before any schedule runs.
ProgramExploreResult explore_program(ProgramExploreOptions options);

// `racelab replay FILE --debug`: replaces racelab with gdb running the
// program, which follows `options.replay_decisions` by itself (no racelab
// process is left to ask) and stops at the first failure: a sanitizer's
// report (breakpoints on __tsan_on_report and __asan_on_error), a signal,
// or else racelab_failing_step(), called at the schedule's last decision.
// Throws
// InputError, before anything runs, for a program that cannot be run or was
// not linked with racelab::runtime, or when gdb is not in PATH; returns
// only by throwing.
[[noreturn]] void debug_program(ProgramExploreOptions options);

// The result as one case of the reports (`racelab explore --out DIR` writes
// the report set from it, in explore's vocabulary): the program's base name
// and arguments as the subject (program_case_name()), its full path and
// arguments apart (CaseResult::program, arguments), "explore" as the
// scenario, controlled mode, the search's wall time; found (a finding, which
// results.json records as the case's mismatch: "found data_race"), clean, or
// verified when dfs searched every schedule that matters.
CaseResult program_case_result(const ProgramExploreResult& result,
                               const ProgramExploreOptions& options);

// How the reports name a program run: its file's base name, then its
// arguments, each quoted as a shell would need it ("counter --n 3",
// "counter 'two words'").
std::string program_case_name(const std::vector<std::string>& command);

// The text `racelab explore` prints for a result.
std::string describe(const ProgramExploreResult& result,
                     const ProgramExploreOptions& options);

// The lines `racelab explore` prints when a finding is made, before it is
// shrunk (ProgramExploreOptions::on_found): where it was found, its first
// finding's line, the file it is saved in. Each line starts with `who`
// ("racelab explore: ./program", or a test's name under --tests).
std::string describe_found(const ProgramExploreResult& found,
                           const ProgramExploreOptions& options,
                           const std::string& who);

}  // namespace racelab

#endif  // RACELAB_PROGRAM_EXPLORER_H_
