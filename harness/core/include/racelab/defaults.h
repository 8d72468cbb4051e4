// racelab's defaults, in one place: the kit (CheckOptions, kit.h), plain-code
// exploration (ExploreOptions, explore.h), the engine's request (RunRequest,
// case.h) and so the CLI and the gate (RunOptions, runner.h) all start from
// these values. docs/defaults.md is their table; change both together.
#ifndef RACELAB_DEFAULTS_H_
#define RACELAB_DEFAULTS_H_

#include <cstdint>

#include "racelab/internal/sched/substrate.h"

namespace racelab::defaults {

// Controlled mode: the strategy and its parameters.
inline constexpr const char* kStrategy = "pct";
inline constexpr std::uint64_t kSeed = 1;
inline constexpr int kDepth = 3;        // pct: bug depth
inline constexpr int kPreemptions = 2;  // dfs: preemption bound
// Schedules one search tries at most (in one process: the kit, explore, a
// case's child).
inline constexpr int kBudget = 1000;
// The gate: schedules a search that must prove a case `verified` (dfs over a
// fixed subject's seed scenario, expectation.h) may try at least.
inline constexpr int kVerifyBudget = 10000;
// What logical threads run on: real OS threads, so thread_local variables,
// thread ids and per-thread caches are per logical thread.
inline constexpr sched::Substrate kThreads = sched::Substrate::kOsThreads;

// Stress mode: runs of the full-size program, and a slow reader's pause.
inline constexpr int kStressRuns = 20;
inline constexpr int kPauseUs = 50;

// How long a search may make no scheduling decision before it is a hang
// (explore, racelab explore -- ./program).
inline constexpr int kHangSeconds = 60;

// racelab explore -- ./program: every schedule is a process of its own, so
// its budget is smaller.
inline constexpr int kProgramBudget = 100;

}  // namespace racelab::defaults

#endif  // RACELAB_DEFAULTS_H_
