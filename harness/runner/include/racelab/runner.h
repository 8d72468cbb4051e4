// The case runner: every run of a case executes in a child process (a re-exec
// of the same binary that reads the case from a serialized request), so a
// subject that crashes, hangs or corrupts memory is a finding of that run and
// never takes the harness down. The parent collects the child's structured
// findings from a pipe, its exit status or signal, and enforces a time limit.
#ifndef RACELAB_RUNNER_H_
#define RACELAB_RUNNER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/expectation.h"
#include "racelab/internal/case.h"
#include "racelab/internal/input_error.h"
#include "racelab/kind_set.h"
#include "racelab/registry.h"

namespace racelab {

struct RunOptions {
  // What each run does: mode, the case's seed (each run derives its own from
  // it and its index), stress and controlled settings, the oracles.
  RunRequest request;
  int runs = defaults::kStressRuns;  // racelab/defaults.h
  // How long a run may go without progress (no operation finished, no
  // iterator step, no scheduling decision) before it counts as hung; a slow
  // run that keeps progressing is never cut. 0: the mode's default (stress
  // 5 s; controlled 30 s, since a schedule that races prints and symbolizes
  // every report inside one step).
  int run_timeout_ms = 0;
  int effective_run_timeout_ms() const {
    if (run_timeout_ms > 0) return run_timeout_ms;
    return request.mode == Mode::kControlled ? 30000 : 5000;
  }
  std::string save_schedule;  // write the failing schedule here (run, replay)
  // Controlled mode: replay this schedule, the text of a schedule file that
  // the parent has read and checked (the child gets the text, not a path).
  std::string replay_schedule;
  std::string self_exe = "/proc/self/exe";
};

// A finding as aggregated over the runs of a case.
struct AggregatedFinding {
  Finding finding;
  int runs = 0;  // how many runs reported it
};

// A run whose child process was killed by a signal that racelab did not send
// (SIGKILL, SIGTERM, SIGINT or SIGHUP from outside: a user's kill, the
// out-of-memory killer) and that left no sanitizer report. Such a death says
// nothing about the subject, so the run is made once more; only when the
// retry ends the same way is it the crash finding it would otherwise be. (A
// subject's own crash, SIGSEGV, SIGABRT, SIGBUS, SIGILL or SIGFPE, is never
// retried; neither is a run that racelab itself stopped, for a hang or an
// interrupt.)
struct RetriedRun {
  int run = 0;               // the run's index in its case
  std::string signal;        // "SIGKILL", "SIGTERM", "SIGINT" or "SIGHUP"
  bool ended_again = false;  // the retry was killed the same way
};

// "run 3 was retried: ..." for the CLI and the reports.
std::string describe(const RetriedRun& retried);

// The result of a case over its runs (the outer layer of the three listed
// at the top of case.h): the kinds observed, the histogram of outcomes, the
// findings with how many runs reported each, and the first failing run's
// schedule.
struct CaseResult {
  std::string family;
  std::string subject;
  std::string scenario;
  std::string source;  // the subject's source file (CaseSpec::source)
  // `racelab explore`: the program's full path and its arguments (the
  // subject names it by its base name and arguments); empty in a gate.
  std::string program;
  std::vector<std::string> arguments;
  Mode mode = Mode::kStress;
  std::string expected;  // "clean" or "data_race or ...", to show
  // The kinds of which a run must report one (empty: the case must stay
  // clean); unset when the table has no expectation for the case.
  std::optional<KindSet> expected_kinds;
  std::vector<FindingKind> kinds;  // observed over all runs, in enum order
  std::string mismatch;            // empty when the expectation holds
  int runs = 0;
  int runs_with_finding = 0;
  std::map<KindSet, int> histogram;  // outcome of a run -> how many runs
  std::vector<AggregatedFinding> findings;
  std::string first_failure_log;  // the sanitizer text of the first failing run
  // Wall time of the case's runs (a gate), or of its searches with their
  // shrink (`racelab explore`, measured where the search runs).
  double seconds = 0;
  // Controlled mode: the minimal failing schedule of the first failing run,
  // with its trace (empty when clean or in stress mode), and where it was
  // saved.
  RecordedSchedule schedule;
  std::string schedule_file;
  int schedules = 0;  // controlled mode: schedules tried over all runs
  int first_failing =
      -1;  // controlled mode: index of the first failing schedule
  // Controlled mode: runs whose search was exhausted without a finding
  // (RunObservation::exhaustive), and whether every run was: then the case
  // is `verified` (every schedule that matters of its program, within the
  // preemption bound when one was given), not only `clean`.
  int exhaustive_runs = 0;
  bool verified = false;
  int preemption_bound = -1;  // of a verified case's search; -1: none
  // Controlled mode: the search each run made, as the gate chose it for this
  // case (a row that must be verified gets dfs and a larger budget); the
  // reports' header says what ran. Empty and 0 in stress mode.
  std::string strategy;
  int budget = 0;

  // Runs made a second time, in run order (see RetriedRun).
  std::vector<RetriedRun> retried;
  // "verified", "clean" or the kinds joined with ",".
  std::string observed() const;
};

// Runs `runs` runs of the case, from `first_run` on, in one child process,
// one after the other: the process's start-up is paid once. Returns one
// observation per run made; when the child dies (a crash, a hang, an
// ASan report), the last one is the run it died in, with how it ended, and
// the runs after it were not made (fewer than `runs` are returned).
std::vector<RunObservation> run_batch_in_child(const CaseSpec& spec,
                                               const RunOptions& options,
                                               int first_run, int runs);
// Runs one run of `spec` in a child process.
// The observation's log is the child's stderr (capped).
RunObservation run_in_child(const CaseSpec& spec, const RunOptions& options,
                            int run_index);

// Adds one run's observation to a case result: runs, schedules, the outcome
// histogram (one key per set of kinds, "clean" for none), the kinds
// observed, the findings (one entry per kind and summary, counted once per
// run), the first failing run's log and, from the first failing run that has
// a trace, its schedule and first failing schedule index.
void add_run(CaseResult& result, RunObservation run);

// Runs every run of a case and judges it against `expectation` (may be null:
// then any finding counts as a mismatch-free observation and mismatch says so).
// A run killed from outside is made once more (RetriedRun): its first try is
// not counted, and the retry's log starts with a line that says why.
CaseResult run_case(const CaseSpec& spec, const Expectation* expectation,
                    const RunOptions& options);

}  // namespace racelab

#endif  // RACELAB_RUNNER_H_
