// What the controlled scheduler's tests share: threads that note numbered
// steps, the operations a run noted, a plain dfs search over them that
// counts schedules and interleavings, and a thread body that deadlocks on
// its own shared lock.
#ifndef RACELAB_TESTS_SCHED_STEPPING_THREADS_H_
#define RACELAB_TESTS_SCHED_STEPPING_THREADS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/sync.h"

// An atomic load is a scheduling point only in a ThreadSanitizer build (the
// runtime's hooks see it); a test whose thread polls an atomic without any
// other point cannot run in another build: it would spin on one fiber.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_TEST_ATOMICS_ARE_POINTS 1
#endif
#endif
#ifdef RACELAB_TEST_ATOMICS_ARE_POINTS
#define SKIP_UNLESS_ATOMICS_ARE_POINTS() (void)0
#else
#define SKIP_UNLESS_ATOMICS_ARE_POINTS()                                      \
  GTEST_SKIP() << "polls an atomic without a yield: a scheduling point only " \
                  "in a ThreadSanitizer build"
#endif

namespace racelab::sched::scheduler_test {

using Threads = std::vector<std::function<void()>>;

// `count` threads of `steps` steps each; thread t notes "a1", "a2", ... (t=0),
// "b1", ... (t=1), with a yield point between consecutive steps.
inline Threads stepping_threads(int count, int steps) {
  Threads threads;
  for (int t = 0; t < count; ++t) {
    threads.push_back([t, steps] {
      for (int s = 0; s < steps; ++s) {
        if (s > 0) racelab::yield_point("step");
        ControlledScheduler::note(std::string(1, static_cast<char>('a' + t)) +
                                  std::to_string(s + 1));
      }
    });
  }
  return threads;
}

// The noted operations of a run, in order: "a1 b1 a2 b2".
inline std::string operations(const RunResult& result) {
  std::string out;
  for (const TraceRow& row : result.trace.rows) {
    if (row.kind != TraceKind::kOperation) continue;
    if (!out.empty()) out += ' ';
    out += row.text;
  }
  return out;
}

struct Exploration {
  int schedules = 0;
  std::set<std::string> interleavings;
  int max_preemptions = 0;
};

inline Exploration explore_dfs(const Threads& threads, int bound) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(bound);
  Exploration exploration;
  for (int guard = 0; guard < 100000; ++guard) {
    RunResult result = scheduler.run(threads, dfs);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    ++exploration.schedules;
    exploration.interleavings.insert(operations(result));
    exploration.max_preemptions =
        std::max(exploration.max_preemptions, result.preemptions);
    if (!result.more_schedules) break;
  }
  EXPECT_EQ(exploration.schedules, dfs.schedules_explored());
  EXPECT_TRUE(dfs.exhausted());
  return exploration;
}

// Takes a shared lock, then asks for the same lock exclusively.
inline void read_then_write(racelab::SharedMutex& mu)
    ABSL_NO_THREAD_SAFETY_ANALYSIS {
  mu.lock_shared();
  ControlledScheduler::note("holds the read lock");
  mu.lock();
}

}  // namespace racelab::sched::scheduler_test

#endif  // RACELAB_TESTS_SCHED_STEPPING_THREADS_H_
