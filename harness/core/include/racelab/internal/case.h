// A case: subject x scenario x mode, type-erased so the engine can run any
// family. Scenario catalogs build cases; the engine never sees a family type.
//
// A case's result is built in three layers, from the inside out:
//   sched::RunResult (sched/scheduler.h)  one schedule as the scheduler ran
//                                         it: decisions, status, raw trace;
//   RunObservation (here)                 one run: a schedule judged by the
//                                         oracles, a search over schedules,
//                                         a stress run; the kit's CheckResult;
//   CaseResult (runner.h)                 a case over its runs (add_run).
// A reported schedule is one RecordedSchedule (program, decisions, trace)
// embedded in the last two. The other entry points have results of their own
// (ExploreResult, GateResult, ProgramExploreResult, ...): docs/architecture.md
// lists them.
#ifndef RACELAB_CASE_H_
#define RACELAB_CASE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/oracle.h"

namespace racelab {

enum class Mode { kStress, kControlled };
const char* to_string(Mode mode);

struct RunObservation;

// How one run of a case executes.
struct RunRequest {
  Mode mode = Mode::kStress;
  std::uint64_t seed = defaults::kSeed;
  int run_index = 0;
  // Stress mode: random jitter (sched_yield or a short sleep) at operation
  // boundaries and scheduling points, and the length of a reader's pause.
  bool jitter = false;
  int pause_us = defaults::kPauseUs;
  // Which oracles judge the run. The sanitizer oracles are those of the build
  // (tsan in the TSan build, asan in the ASan build); leaving tsan out makes
  // the child run with TSan's reports disabled.
  OracleSet oracles = OracleSet::selectable();

  // Controlled mode: the strategy and its parameters, how many schedules to
  // try, and (for replay) the recorded schedule to follow.
  // Defaults: racelab/defaults.h (docs/defaults.md).
  std::string strategy = defaults::kStrategy;
  // What the logical threads run on: real OS threads passing a baton (the
  // default; thread_local and thread ids are per logical thread) or fibers of
  // one OS thread (faster, one thread identity).
  sched::Substrate threads = defaults::kThreads;
  int depth = defaults::kDepth;
  int preemptions = defaults::kPreemptions;
  // The memory-model mode (sched::SchedulerOptions::memory_model): an
  // atomic load may read any store the C++ memory model allows. A subject
  // whose catalog entry asks for it runs with it whatever this says.
  bool memory_model = false;
  int budget = defaults::kBudget;
  bool shrink = true;
  std::vector<int> replay_decisions;
  std::vector<std::string>
      replay_program;  // "setup", threads..., "finale" lines
  // A replay that may leave the recorded decisions (another store, changed
  // code) and then runs the current thread on; else a mismatch is an error.
  bool lenient_replay = false;
  // Follow replay_decisions once, with replay_program when it is not empty
  // (a whole program has no encoded program: it replays decisions alone).
  // A non-empty replay_program replays too.
  bool replay = false;
  // Asked before every schedule of a search and every rerun of its shrink:
  // true ends it there, and the observation says it was interrupted (SIGINT
  // or SIGTERM of racelab); a finding already made is kept as found.
  std::function<bool()> stop_requested;
  // Called once with the first failing schedule as found, before it is
  // shrunk: its findings, decisions (no trace), `schedules` and
  // `first_failing` as the search's. A caller saves or prints it there, so
  // that a shrink that is stopped or killed loses nothing.
  std::function<void(const RunObservation& found)> on_found;
  // The reported findings also keep the kinds that only the first run of the
  // failing schedule showed (in-process checks: TSan reports each racing pair
  // once per process, so the shrinking reruns may not report it again).
  bool keep_first_kinds = false;
  // A numbered search (pct, random; Strategy::numbered) split in parts:
  // `jobs` schedules at once (when the caller gives a way to make more
  // workers), and of the search's schedules only those of shard K of N
  // (index i with i % N == K - 1). Either way schedule i is the one it is
  // in a whole search on one worker, and the first failing one is found.
  // A dfs search with `jobs` of 2 or more splits its tree instead
  // (controlled_internal::explore).
  int jobs = 1;
  int shard_index = 1;
  int shard_count = 1;
};

// A controlled request with the search settings every door's options share
// (CheckOptions, ExploreOptions, ProgramExploreOptions, RunOptions'
// request): strategy, seed, depth, preemptions, budget, the memory-model
// mode. The caller adds what is its own.
template <typename SearchOptions>
RunRequest controlled_request_from(const SearchOptions& options) {
  RunRequest request;
  request.mode = Mode::kControlled;
  request.strategy = options.strategy;
  request.seed = options.seed;
  request.depth = options.depth;
  request.preemptions = options.preemptions;
  request.budget = options.budget;
  request.memory_model = options.memory_model;
  return request;
}

// A schedule as recorded: the program (encoded lines, setup first, finale
// last), the decision at every scheduling point, and the trace of the run
// that followed it. Every result that reports a schedule embeds one.
struct RecordedSchedule {
  std::vector<std::string> program;
  std::vector<int> decisions;
  int preemptions = 0;
  sched::Trace trace;
  // For every decision, the operation the chosen thread was at
  // (sched::RunResult::decision_operations): what a program shrinker needs.
  // Not saved in files or reports.
  std::vector<int> decision_operations;
  // How the run that followed it ended (completed, deadlock, step limit).
  sched::RunResult::Status status = sched::RunResult::Status::kCompleted;
  // Recorded in the memory-model mode: some decisions are which store a
  // load read (saved as the file's `memory_model on`).
  bool memory_model = false;

  bool empty() const { return program.empty() && decisions.empty(); }
};

// The result of one run of a case (the middle layer of the three at the top
// of this file: above sched::RunResult, one schedule as the scheduler ran it,
// and below CaseResult in runner.h, a case over its runs): one schedule of a
// program, a search over schedules (controlled mode), or one stress run. A
// child reports one to its parent; the kit's check_store returns one
// (CheckResult).
struct RunObservation {
  std::vector<Finding> findings;  // empty: clean
  int operations = 0;
  int runs = 0;  // stress runs made (the kit's stress mode)
  // Controlled mode.
  int schedules = 0;       // schedules tried
  int first_failing = -1;  // 0-based index of the first failing schedule
  // The (shrunk) failing schedule with its trace; for a clean search, the
  // last schedule tried.
  RecordedSchedule schedule;
  bool replay_diverged = false;  // a lenient replay left the recorded path
  bool more_schedules = false;   // one schedule: the strategy has more to try
  // A search: the strategy ran out of schedules within the budget (dfs
  // tried every schedule within its preemption bound), so a clean result
  // covers them all.
  bool exhaustive = false;
  // stop_requested ended the search before its budget or its tree; or,
  // with findings, ended the shrink of the failing schedule, which is then
  // reported as found (its findings and decisions, no trace).
  bool interrupted = false;
  // A search with a finding: the reruns that made its schedule minimal (the
  // final replay included), counted apart from `schedules`, the search's
  // own.
  int shrink_runs = 0;
  // Some schedule had a choice taken away by fairness
  // (sched::RunResult::fairness_cut): the search is not exhaustive.
  bool fairness_cut = false;
  // A schedule was cut at this many decisions while still making progress
  // (sched::RunResult::Status::kLengthLimit), 0 when none was: no finding,
  // but the search is inconclusive (never exhaustive) and ended there.
  std::int64_t length_cut = 0;
  // Linearizability checks that ran out of steps before deciding
  // (LinearizabilityResult::exhausted_budget), over every schedule or run:
  // such a history is neither clean nor a finding. The first one's
  // explanation ("unknown: ...").
  int inconclusive_linearizability = 0;
  std::string inconclusive_detail;
  // TSan findings dropped by the kit's suppressions (CheckOptions::
  // suppressions), over every schedule or run, and one line per suppression
  // that matched: "race:pattern (file:line, reason): N".
  int suppressed = 0;
  std::vector<std::string> suppressions_used;
  // Controlled mode: scheduling points inside operations, over every
  // schedule tried (sched::RunResult::inner_points), and what the search
  // wants the user to know ("no scheduling point inside any operation").
  long inner_points = 0;
  std::vector<std::string> warnings;
  // Controlled mode on OS threads: threads that blocked in the kernel
  // outside every scheduling point (sched::UnmodelledBlock) in the schedules
  // this observation covers; a search that saw one is not exhaustive (its
  // warnings say where).
  int unmodelled_blocks = 0;
  std::string first_block;
  // Filled by whoever ran it: the child's stderr (capped) as its parent saw
  // it; the kit's saved schedule file and its readable verdict.
  std::string log;
  std::string schedule_file;
  std::string message;
  // Filled by the case runner: the signal that ended the run's child when
  // racelab did not send it (SIGKILL, SIGTERM, SIGINT, SIGHUP) and the run
  // left no sanitizer report; 0 otherwise (racelab/runner.h, RetriedRun).
  int killed_from_outside = 0;

  bool clean() const { return findings.empty(); }
  bool has(FindingKind kind) const {
    for (const Finding& f : findings) {
      if (f.kind == kind) return true;
    }
    return false;
  }
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

}  // namespace racelab

#endif  // RACELAB_CASE_H_
