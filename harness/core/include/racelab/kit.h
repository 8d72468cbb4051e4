// What a check of a store takes and gives, shared by every door of the kit
// (spec.h's Spec and check_spec, the gtest.h / catch2.h macros,
// fuzz_target.h): CheckOptions (mode, oracles, strategy, budget, isolation,
// suppressions), CheckResult (findings, schedules tried, the shrunk failing
// schedule's trace, the saved schedule file, a readable message), the
// generated test cases (KitCase) and the listener the reports library
// installs.
//
// Controlled mode needs nothing of the store but a TSan build: its plain
// std::mutex, std::shared_mutex, std::condition_variable and std::atomic
// operations (any pthread lock) are scheduling points by themselves
// (interposed at link time, docs/controlled-mode.md); racelab::Mutex /
// SharedMutex (sync.h) only add names and thread-safety annotations, and
// racelab::yield_point() a point of the store's own. See
// docs/implementer-guide.md, "What controlled mode needs from your store".
#ifndef RACELAB_KIT_H_
#define RACELAB_KIT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/internal/sched/substrate.h"

namespace racelab {

// How a check runs a scenario.
struct CheckOptions {
  Mode mode = Mode::kControlled;
  OracleSet oracles = OracleSet::selectable();
  // Controlled mode: strategy ("pct", "random", "dfs", "plain-dfs"), its
  // parameters, the number of schedules to try, and whether to shrink a
  // failing one.
  // The defaults are racelab's (racelab/defaults.h, docs/defaults.md), the
  // same as explore's and the CLI's.
  std::string strategy = defaults::kStrategy;
  // What logical threads run on (sched::Substrate): real OS threads by
  // default, so thread_local variables, thread ids and per-thread caches
  // (moodycamel's producers, allocators) are per logical thread; fibers are
  // faster and see one thread identity.
  sched::Substrate threads = defaults::kThreads;
  std::uint64_t seed = defaults::kSeed;
  int depth = defaults::kDepth;
  int preemptions = defaults::kPreemptions;
  int budget = defaults::kBudget;
  bool shrink = true;
  // Controlled mode: an atomic load may read any store the C++ memory model
  // allows, not only the latest (docs/memory-model.md). Needs a TSan build.
  bool memory_model = false;
  // Stress mode: runs of the full-size program, jitter, a reader's pause.
  int stress_runs = defaults::kStressRuns;
  bool jitter = true;
  int pause_us = defaults::kPauseUs;
  // The name of the store in messages and schedule files ("ring/mutex");
  // empty: the family's name.
  std::string store_name;
  // Folder for schedule files; empty: racelab's per-user folder
  // ($XDG_STATE_HOME/racelab/schedules, else ~/.local/state/..., 0700).
  std::string schedule_dir;
  // The folders of the store's own code (absolute, or as the debug
  // information names them): a finding's subject frame is its first frame
  // under one of them. Empty: its first frame outside racelab's folders and
  // outside system and library paths.
  std::vector<std::string> source_roots;
  // Run the check in a forked child (racelab/internal/isolation.h), so that a
  // store that crashes (a signal, abort, an uncaught exception,
  // std::terminate), exits or hangs is a finding of the check (crash, timeout)
  // and this process survives to report it; in controlled mode the schedule in
  // flight is saved. Off: in this process, for a debugger.
  bool isolate = true;
  // Isolated checks: no progress (no scheduling decision, no operation
  // step) for this long is a hang; the child's process group is killed.
  int hang_seconds = 60;
  // A TSan suppressions file (racelab/suppressions.h, docs/suppressions.md):
  // TSan findings whose stacks match a line are dropped and counted in the
  // result; every line must say why. Empty: none. A line without a reason, or
  // a file that cannot be read, throws InputError.
  std::string suppressions;
};

// The verdict of a check or a replay: one run of the scenario
// (findings, schedules tried, the shrunk failing schedule with
// its trace, the saved schedule file, a readable message); the engine's
// result of one run, RunObservation (case.h).
using CheckResult = RunObservation;

namespace kit_internal {

// Reads a schedule file; throws sched::ScheduleFileError or
// std::runtime_error. Returns program lines (setup, threads..., finale).
sched::ScheduleFile read_schedule(const std::string& path,
                                  std::vector<std::string>* program_lines);
// Why the schedule file at `path` (of file.subject x file.scenario) is not
// one of this test's (`store` x `scenario`).
std::string other_test_text(const std::string& path,
                            const sched::ScheduleFile& file,
                            const std::string& store,
                            const std::string& scenario);

}  // namespace kit_internal

// One generated test: a scenario in a mode, judged by one oracle (tsan,
// invariants, linearizability) or by all of them (no oracle named).
struct KitCase {
  int scenario = 0;
  std::string scenario_name;
  Mode mode = Mode::kControlled;
  std::optional<Oracle> oracle;  // nullopt: every selectable oracle

  // "linearizability", or "all".
  std::string oracle_name() const {
    return oracle ? to_string(*oracle) : "all";
  }
  // The oracles the case runs with (a case of all: every selectable one;
  // a spec's case of all runs the spec's own selection).
  OracleSet oracles() const {
    return oracle ? OracleSet{*oracle} : OracleSet::selectable();
  }
  // "push_pop_race/controlled/linearizability"
  std::string name() const {
    return scenario_name + "/" + to_string(mode) + "/" + oracle_name();
  }
};

// The environment variable that makes the test-framework macros replay a
// schedule file instead of searching: RACELAB_REPLAY=<file> <test binary>
// --gtest_filter=<test>, the command a failing kit test prints.
inline constexpr const char* kReplayVariable = "RACELAB_REPLAY";

// The schedule file to replay ($RACELAB_REPLAY), or "" when none is set.
std::string replay_request();

// One finished test of the test-framework macros, as listeners see it.
struct KitTestRecord {
  std::string test;    // "Racelab/MutexRing.Clean/random__controlled__tsan"
  std::string source;  // the test's source file, as the framework names it
  std::string family;  // the family's name
  std::string store;   // the store's name
  KitCase kit_case;
  bool expect_caught = false;  // RACELAB_EXPECT_CAUGHT: passes when caught
  bool passed = false;
  bool replayed = false;  // RACELAB_REPLAY ran a schedule file
  const CheckResult* result = nullptr;
};

// Something told of every finished kit test (racelab_kit_reports installs
// one that writes the reports of $RACELAB_REPORT_DIR). One at a time;
// nullptr removes it. The core itself writes no reports.
using KitListener = void (*)(const KitTestRecord& record);
void set_kit_listener(KitListener listener);
// Tells the listener, if any; what it throws is caught and printed.
void notify_kit_test(const KitTestRecord& record);

// One line per finding: "[data_race/tsan] summary".
std::string format_findings(const std::vector<Finding>& findings);

}  // namespace racelab

#endif  // RACELAB_KIT_H_
