// racelab::explore: controlled exploration of plain C++ code.
//
//   racelab::ExploreResult result = racelab::explore([] {
//     std::mutex mu;
//     int balance = 0;
//     auto deposit = [&] {
//       int seen;
//       { std::lock_guard<std::mutex> lock(mu); seen = balance; }
//       { std::lock_guard<std::mutex> lock(mu); balance = seen + 1; }
//     };
//     std::thread a(deposit), b(deposit);
//     a.join();
//     b.join();
//     assert(balance == 2);  // a lost update fails it in some schedule
//   });
//   if (result.found()) std::cerr << result.message;
//
// The body runs as logical thread 0 under the controlled scheduler on real OS
// threads (sched::Substrate::kOsThreads): every std::thread or pthread it
// starts is a logical thread with its own thread identity, and every
// interposed primitive and atomic is a scheduling point (scheduling_hooks.h).
// Each schedule runs the body afresh. The search runs in a child process, so
// a crash (failed assert, abort, segfault, an exception nobody catches) or a
// hang of the body is a finding of the schedule in flight, saved like any
// other, and the calling process survives. Needs a TSan build for atomics to
// be scheduling points and for data races to be findings.
#ifndef RACELAB_EXPLORE_H_
#define RACELAB_EXPLORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "racelab/defaults.h"
#include "racelab/finding.h"

namespace racelab {

struct ExploreOptions {
  // "pct" (seed, depth), "random" (seed), "dfs" (partial-order reduction
  // within `preemptions`, -1 for no bound: a clean search of the whole tree
  // is exhaustive) or "plain-dfs" (every schedule within the bound). The
  // search is the engine's, as for the kit and the gate: the first failing
  // schedule is shrunk to its fewest preemptions and replayed for its trace.
  // Defaults: racelab/defaults.h (docs/defaults.md), as for the kit and the
  // CLI.
  std::string strategy = defaults::kStrategy;
  std::uint64_t seed = defaults::kSeed;
  int depth = defaults::kDepth;
  int preemptions = defaults::kPreemptions;
  int budget = defaults::kBudget;  // schedules at most
  int max_steps = 20000;           // decisions without progress: a livelock
  int spin_bound = 64;  // scheduler fairness (sched::SchedulerOptions)
  // An atomic load may read any store the C++ memory model allows, not only
  // the latest (relaxed, acquire/release; docs/controlled-mode.md); which
  // one is a decision of the schedule. Needs a TSan build.
  bool memory_model = false;
  // A schedule that makes no scheduling decision for this long is a hang
  // (a thread blocked in code the scheduler cannot see, or an endless loop
  // without scheduling points). Never the verdict of a loaded machine alone:
  // only a run with no decision at all in that time.
  int hang_seconds = defaults::kHangSeconds;
  bool tsan = true;  // TSan reports are findings (TSan builds)
  // Where the failing schedule is saved: <schedule_dir>/racelab-<name>.schedule
  // (schedule_dir empty: racelab's per-user folder,
  // $XDG_STATE_HOME/racelab/schedules, else ~/.local/state/racelab/schedules,
  // created 0700). `name` is also the subject named in the file.
  std::string schedule_dir;
  std::string name = "explore";
};

struct ExploreResult {
  bool found() const { return !findings.empty(); }

  std::vector<Finding> findings;  // kinds as in docs/findings.md
  int schedules = 0;              // schedules tried
  int first_failing = -1;         // 0-based, -1 when clean
  bool exhausted = false;         // dfs: every schedule that matters was run
  std::vector<int> decisions;     // of the failing (or last) schedule
  std::string trace;              // its trace table (sched::format_trace)
  std::string schedule_file;      // the saved failing schedule, or ""
  std::string message;            // verdict, findings, trace, how to replay
  // Threads that blocked in the kernel outside every scheduling point
  // (sched::UnmodelledBlock), over every schedule: a search that saw one is
  // never exhausted. The first few, described.
  int unmodelled_blocks = 0;
  std::vector<std::string> block_notes;
  // What the search wants the user to know (why it is not exhaustive).
  std::vector<std::string> warnings;
  // A schedule was cut at this many decisions while still making progress
  // (racelab's length limit): no finding, but the search is inconclusive.
  std::int64_t length_cut = 0;
};

// Explores schedules of `body` under `options`. Throws std::invalid_argument
// with a one-line message for invalid options.
ExploreResult explore(const std::function<void()>& body,
                      const ExploreOptions& options = {});

// Reruns the schedule saved in `schedule_file` (by explore) once. Throws
// InputError (input_error.h) with a one-line message naming the file when it
// cannot be read or is not a schedule of a program.
ExploreResult replay(const std::function<void()>& body,
                     const std::string& schedule_file,
                     const ExploreOptions& options = {});

}  // namespace racelab

#endif  // RACELAB_EXPLORE_H_
