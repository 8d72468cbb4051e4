// Tests of racelab::sched::ControlledScheduler: runs, blocking, deadlocks,
// exceptions, replay and determinism (the limits and fairness:
// scheduler_limits_test.cc; plain dfs's schedule counts: plain_dfs_test.cc).
#include "racelab/internal/sched/scheduler.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "racelab/sync.h"
#include "stepping_threads.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define RACELAB_TEST_ASAN 1
#endif
#endif

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;
using Status = RunResult::Status;

using scheduler_test::Exploration;
using scheduler_test::explore_dfs;
using scheduler_test::operations;
using scheduler_test::read_then_write;
using scheduler_test::stepping_threads;

TEST(SchedulerTest, RunsEveryThreadToCompletion) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  std::vector<int> seen(3, -2);  // each thread writes only its own slot
  Threads threads;
  for (int t = 0; t < 3; ++t) {
    threads.push_back([t, &seen] {
      racelab::yield_point("a");
      seen[static_cast<std::size_t>(t)] = ControlledScheduler::current_thread();
      racelab::yield_point("b");
    });
  }
  EXPECT_EQ(ControlledScheduler::current_thread(), -1);
  RunResult result = scheduler.run(threads, random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
  // start + 2 yields per thread + the end of each thread but the last.
  EXPECT_EQ(result.decisions.size(), 1u + 6u + 2u);
  EXPECT_TRUE(result.deadlock_report.empty());
  EXPECT_TRUE(result.more_schedules);
  EXPECT_EQ(ControlledScheduler::current_thread(), -1);
}

// OS threads take turns, so a run's threads all run on the CPU its caller was
// on when it began (a hand-off is then a switch on one CPU), and the caller
// gets its own affinity back.
TEST(SchedulerTest, OsThreadsOfARunShareOneCpuAndTheCallerGetsItsCpusBack) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kOsThreads});
  RandomStrategy random(1);
  std::vector<int> cpus_allowed(3, 0), cpu_on(3, -1);
  Threads threads;
  for (int t = 0; t < 3; ++t) {
    threads.push_back([t, &cpus_allowed, &cpu_on] {
      racelab::yield_point("a");
      cpu_set_t mine;
      sched_getaffinity(0, sizeof mine, &mine);
      cpus_allowed[static_cast<std::size_t>(t)] = CPU_COUNT(&mine);
      cpu_on[static_cast<std::size_t>(t)] = sched_getcpu();
    });
  }
  ASSERT_EQ(scheduler.run(threads, random).status, Status::kCompleted);
  EXPECT_EQ(cpus_allowed, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(cpu_on[0], cpu_on[1]);
  EXPECT_EQ(cpu_on[1], cpu_on[2]);
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(SchedulerTest, EmptyProgramCompletes) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  RunResult result = scheduler.run({}, random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_TRUE(result.decisions.empty());
}

TEST(SchedulerTest, CountsPreemptionsAndRecordsTheTrace) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  // a1, preempted at the yield, b1 b2, then a2.
  ReplayStrategy replay({0, 1, 1, 0});
  RunResult result = scheduler.run(stepping_threads(2, 2), replay);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(result.decisions, (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(result.preemptions, 1);
  EXPECT_EQ(operations(result), "a1 b1 b2 a2");
  const std::vector<TraceRow> expected = {
      {0, 0, TraceKind::kOperation, "a1"},
      {0, 0, TraceKind::kSwitch, "preempted at 'step'"},
      {1, 1, TraceKind::kOperation, "b1"},
      {2, 1, TraceKind::kOperation, "b2"},
      {2, 1, TraceKind::kSwitch, "finished"},
      {3, 0, TraceKind::kOperation, "a2"},
      {3, 0, TraceKind::kSwitch, "finished"},
  };
  EXPECT_EQ(result.trace.rows, expected);
  EXPECT_EQ(result.trace.thread_count, 2);
}

// A search's schedules keep no trace (only a failing one is reported, and
// that one is replayed with it): without the trace the strategy picks the
// same schedule.
TEST(SchedulerTest, AStrategyThatKeepsNoTraceRunsTheSameScheduleWithoutOne) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy traced(7);
  const RunResult with = scheduler.run(stepping_threads(3, 3), traced);
  RandomStrategy untraced(7);
  untraced.set_records_trace(false);
  const RunResult without = scheduler.run(stepping_threads(3, 3), untraced);
  ASSERT_EQ(with.status, Status::kCompleted);
  ASSERT_EQ(without.status, Status::kCompleted);
  EXPECT_FALSE(with.trace.rows.empty());
  EXPECT_TRUE(without.trace.rows.empty());
  EXPECT_EQ(without.trace.thread_count, 3);
  EXPECT_EQ(without.decisions, with.decisions);
  EXPECT_EQ(without.preemptions, with.preemptions);
}

TEST(SchedulerTest, SameSeedGivesTheSameRunByteForByte) {
  racelab::Mutex mu("counter.mu");
  int counter = 0;
  Threads threads;
  for (int t = 0; t < 3; ++t) {
    threads.push_back([&] {
      for (int i = 0; i < 3; ++i) {
        racelab::MutexLock lock(mu);
        const int value = counter;
        racelab::yield_point("inside");
        counter = value + 1;
      }
    });
  }
  std::vector<std::string> traces;
  std::vector<std::vector<int>> decisions;
  for (int attempt = 0; attempt < 2; ++attempt) {
    ControlledScheduler scheduler(
        SchedulerOptions{.substrate = Substrate::kFibers});
    PctStrategy pct(/*seed=*/11, /*depth=*/3);
    for (int schedule = 0; schedule < 5; ++schedule) {
      counter = 0;
      RunResult result = scheduler.run(threads, pct);
      ASSERT_EQ(result.status, Status::kCompleted);
      EXPECT_EQ(counter, 9);
      traces.push_back(format_trace(result.trace));
      decisions.push_back(result.decisions);
    }
  }
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(traces[i], traces[i + 5]);
    EXPECT_EQ(decisions[i], decisions[i + 5]);
  }
}

TEST(SchedulerTest, ReplayReproducesARecordedRun) {
  racelab::Mutex mu("mu");
  int counter = 0;
  Threads threads;
  for (int t = 0; t < 3; ++t) {
    threads.push_back([&, t] {
      ControlledScheduler::note("thread " + std::to_string(t) + " begins");
      for (int i = 0; i < 2; ++i) {
        racelab::MutexLock lock(mu);
        ++counter;
        racelab::yield_point("inside");
      }
      ControlledScheduler::note("-> ok");
    });
  }
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(42);
  for (int schedule = 0; schedule < 20; ++schedule) {
    counter = 0;
    RunResult recorded = scheduler.run(threads, random);
    ASSERT_EQ(recorded.status, Status::kCompleted);
    counter = 0;
    ReplayStrategy replay(recorded.decisions);
    RunResult replayed = scheduler.run(threads, replay);
    EXPECT_EQ(replayed.decisions, recorded.decisions);
    EXPECT_EQ(replayed.trace, recorded.trace);
    EXPECT_EQ(replayed.preemptions, recorded.preemptions);
    EXPECT_EQ(replay.decisions_followed(),
              static_cast<int>(recorded.decisions.size()));
    EXPECT_FALSE(replayed.more_schedules);
    EXPECT_EQ(counter, 6);
  }
}

TEST(SchedulerTest, ReplayRejectsAThreadThatDoesNotExist) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  ReplayStrategy replay({0, 5});
  try {
    scheduler.run(stepping_threads(2, 2), replay);
    FAIL() << "expected ScheduleError";
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(),
                 "replay: step 1 decides thread 5, which does not exist (the "
                 "program has 2 threads); enabled threads: {0, 1}");
  }
  // The scheduler is still usable.
  RandomStrategy random(3);
  EXPECT_EQ(scheduler.run(stepping_threads(2, 2), random).status,
            Status::kCompleted);
}

TEST(SchedulerTest, ReplayRejectsAThreadThatIsNotEnabled) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  // Thread 0 has one step; at step 1 it has finished.
  ReplayStrategy replay({0, 0});
  try {
    scheduler.run(stepping_threads(2, 1), replay);
    FAIL() << "expected ScheduleError";
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(),
                 "replay: step 1 decides thread 0, which is not enabled; "
                 "enabled threads: {1}");
  }
}

TEST(SchedulerTest, LenientReplayFallsBackOnImpossibleDecisions) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  ReplayStrategy replay({1, 7, 0}, ReplayMode::kLenient);
  RunResult result = scheduler.run(stepping_threads(2, 2), replay);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_TRUE(replay.diverged());
  // 1; 7 is impossible, so thread 1 continues; 0 after thread 1 finished;
  // then, decisions used up, the fallback continues thread 0.
  EXPECT_EQ(result.decisions, (std::vector<int>{1, 1, 0, 0}));
  EXPECT_EQ(operations(result), "b1 b2 a1 a2");
}

TEST(SchedulerTest, AThreadThatThrowsIsRecordedAndFinishes) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(5);
  Threads threads = {
      [] {
        ControlledScheduler::note("about to throw");
        racelab::yield_point("before throw");
        throw std::runtime_error("boom");
      },
      [] { throw 42; },
      [] { ControlledScheduler::note("fine"); },
  };
  RunResult result = scheduler.run(threads, random);
  EXPECT_EQ(result.status, Status::kCompleted);
  ASSERT_EQ(result.thread_errors.size(), 2u);
  EXPECT_NE(std::find(result.thread_errors.begin(), result.thread_errors.end(),
                      "thread 0 threw: boom"),
            result.thread_errors.end());
  EXPECT_NE(std::find(result.thread_errors.begin(), result.thread_errors.end(),
                      "thread 1 threw an exception that is not a "
                      "std::exception"),
            result.thread_errors.end());
  bool found_row = false;
  for (const TraceRow& row : result.trace.rows) {
    if (row.kind == TraceKind::kException && row.thread == 0) {
      EXPECT_EQ(row.text, "threw: boom");
      found_row = true;
    }
  }
  EXPECT_TRUE(found_row);
}

TEST(SchedulerTest, ABusyLockBlocksAndTheWaiterResumesAfterRelease) {
  racelab::Mutex mu("counter.mu");
  int counter = 0;
  Threads threads;
  for (int t = 0; t < 2; ++t) {
    threads.push_back([&] {
      for (int i = 0; i < 2; ++i) {
        racelab::MutexLock lock(mu);
        const int value = counter;
        racelab::yield_point("inside");
        counter = value + 1;
      }
    });
  }
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(2);
  int schedules = 0;
  int blocked_schedules = 0;
  for (;;) {
    counter = 0;
    RunResult result = scheduler.run(threads, dfs);
    ++schedules;
    ASSERT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
    EXPECT_EQ(counter, 4);
    for (const TraceRow& row : result.trace.rows) {
      if (row.kind == TraceKind::kLockWaited) {
        EXPECT_EQ(row.text, "blocked on 'counter.mu'");
        ++blocked_schedules;
        break;
      }
    }
    if (!result.more_schedules) break;
  }
  EXPECT_GT(schedules, 2);
  EXPECT_GT(blocked_schedules, 0);
}

// The step of each thread's last lock access orders the critical sections as
// they ran, in every schedule: the linearizability check's first guess.
TEST(SchedulerTest, LastStoreStepOrdersCriticalSectionsAsTheyRan) {
  racelab::Mutex mu("counter.mu");
  int counter = 0;
  std::array<int, 2> seen{};
  std::array<std::uint64_t, 2> step{};
  std::uint64_t lockless = 1;
  Threads threads;
  for (int t = 0; t < 2; ++t) {
    threads.push_back([&, t] {
      {
        racelab::MutexLock lock(mu);
        seen[t] = counter++;
        racelab::yield_point("inside");
      }
      racelab::yield_point("after");
      step[t] = ControlledScheduler::last_store_step();
    });
  }
  threads.push_back([&] {
    racelab::yield_point("no lock");
    lockless = ControlledScheduler::last_store_step();
  });
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(2);
  int schedules = 0;
  for (;;) {
    counter = 0;
    RunResult result = scheduler.run(threads, dfs);
    ++schedules;
    ASSERT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
    const int first = seen[0] == 0 ? 0 : 1;
    EXPECT_GT(step[first], 0U);
    EXPECT_LT(step[first], step[1 - first]);
    EXPECT_EQ(lockless, 0U);
    if (!result.more_schedules) break;
  }
  EXPECT_GT(schedules, 2);
  EXPECT_EQ(ControlledScheduler::last_store_step(), 0U);  // outside a run
}

// A point's kind, never its name, says what it is: an operation start and a
// pause are no inner points even when named like one, and a point named "op"
// or "pause" of the inner kind is one.
TEST(SchedulerTest, InnerPointsAndOperationStartsAreToldByKindNotName) {
  Threads threads;
  threads.push_back([] {
    racelab::yield_point("lock", kOperationCall, PointKind::kOperationStart);
    racelab::yield_point("inner", PointAccess::none(), PointKind::kPause);
  });
  threads.push_back([] {
    racelab::yield_point("op", PointAccess::none());
    racelab::yield_point("pause", PointAccess::none(), PointKind::kInner);
  });
  struct Seen {
    std::vector<std::string> operation_starts;
    std::vector<std::string> others;
  } seen;
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  scheduler.set_switch_observer(
      [](const SwitchEvent& event, void* context) {
        if (event.from_thread < 0) return;
        auto* s = static_cast<Seen*>(context);
        (event.from_operation_start ? s->operation_starts : s->others)
            .emplace_back(event.from_site);
      },
      &seen);
  RandomStrategy random(7);
  const RunResult result = scheduler.run(threads, random);
  ASSERT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(result.inner_points, 2);  // thread 1's "op" and "pause"
  EXPECT_EQ(seen.operation_starts, std::vector<std::string>{"lock"});
  // The first thread to finish is one more decision; the last one's end
  // decides nothing.
  std::sort(seen.others.begin(), seen.others.end());
  EXPECT_EQ(seen.others,
            (std::vector<std::string>{"finish", "inner", "op", "pause"}));
}

TEST(SchedulerTest, LockOrderInversionIsFoundByDfsAsADeadlock) {
  racelab::Mutex a("a");
  racelab::Mutex b("b");
  Threads threads = {
      [&] {
        racelab::MutexLock first(a);
        racelab::MutexLock second(b);
      },
      [&] {
        racelab::MutexLock first(b);
        racelab::MutexLock second(a);
      },
  };
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(1);
  RunResult result;
  bool found = false;
  for (int schedule = 0; schedule < 1000 && !found; ++schedule) {
    result = scheduler.run(threads, dfs);
    found = result.status == Status::kDeadlock;
    if (!found) {
      EXPECT_EQ(result.status, Status::kCompleted);
      if (!result.more_schedules) break;
    }
  }
  // The mutexes stay locked by the abandoned threads: the search stops here.
  ASSERT_TRUE(found);
  EXPECT_EQ(result.deadlock_report,
            "thread 0 waits for 'b' (exclusive), held by thread 1 (exclusive)\n"
            "thread 1 waits for 'a' (exclusive), held by thread 0 (exclusive)");
  EXPECT_EQ(result.preemptions, 1);
  EXPECT_GT(dfs.schedules_explored(), 1);
}

TEST(SchedulerTest, SelfDeadlockIsReportedOnTheFirstSchedule) {
  racelab::SharedMutex mu("state.mu");
  Threads threads = {[&] { read_then_write(mu); }};
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(9);
  RunResult result = scheduler.run(threads, random);
  EXPECT_EQ(result.status, Status::kDeadlock);
  EXPECT_EQ(result.deadlock_report,
            "thread 0 waits for 'state.mu' (exclusive), held by thread 0 "
            "(shared)");
  ASSERT_FALSE(result.trace.rows.empty());
  EXPECT_EQ(result.trace.rows.back().kind, TraceKind::kLockWaited);
  EXPECT_EQ(result.trace.rows.back().text, "blocked on 'state.mu'");
}

TEST(SchedulerTest, DeadlockReportListsThreadsOffTheCycle) {
  racelab::Mutex a("a");
  racelab::Mutex b("b");
  // Threads 0 and 1 deadlock; thread 2 waits for 'a' too.
  Threads threads = {
      [&] {
        racelab::MutexLock first(a);
        racelab::yield_point("between");
        racelab::MutexLock second(b);
      },
      [&] {
        racelab::MutexLock first(b);
        racelab::yield_point("between");
        racelab::MutexLock second(a);
      },
      [&] { racelab::MutexLock only(a); },
  };
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  // 0 takes a; 1 takes b; 2 blocks on a; 0 blocks on b; 1 blocks on a.
  ReplayStrategy replay({0, 0, 0, 1, 1, 1, 2, 0, 1});
  RunResult result = scheduler.run(threads, replay);
  ASSERT_EQ(result.status, Status::kDeadlock);
  EXPECT_EQ(result.deadlock_report,
            "thread 0 waits for 'b' (exclusive), held by thread 1 (exclusive)\n"
            "thread 1 waits for 'a' (exclusive), held by thread 0 (exclusive)\n"
            "also blocked: thread 2 waits for 'a' (exclusive), held by thread "
            "0 (exclusive)");
}

// A deadlocked real thread keeps its stack, and what its frames own stays
// reachable; so must an abandoned fiber's.
TEST(SchedulerTest, HeapOwnedByAbandonedThreadsIsNotALeak) {
#ifndef RACELAB_TEST_ASAN
  GTEST_SKIP() << "needs an AddressSanitizer (LeakSanitizer) build";
#else
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  std::vector<std::unique_ptr<racelab::Mutex>> locks;  // left locked
  for (int i = 0; i < 3; ++i) {
    racelab::Mutex& a = *locks.emplace_back(new racelab::Mutex("a"));
    racelab::Mutex& b = *locks.emplace_back(new racelab::Mutex("b"));
    Threads threads = {
        [&] {
          std::vector<int> owned(1000, 1);
          racelab::MutexLock first(a);
          racelab::yield_point("between");
          racelab::MutexLock second(b);
          owned.push_back(2);
        },
        [&] {
          auto owned = std::make_unique<std::string>(300, 'y');
          racelab::MutexLock first(b);
          racelab::yield_point("between");
          racelab::MutexLock second(a);
          owned->push_back('z');
        },
    };
    ReplayStrategy replay({0, 0, 0, 1, 1, 1});
    ASSERT_EQ(scheduler.run(threads, replay).status, Status::kDeadlock);
  }
  EXPECT_EQ(__lsan_do_recoverable_leak_check(), 0);
#endif
}

}  // namespace
}  // namespace racelab::sched
