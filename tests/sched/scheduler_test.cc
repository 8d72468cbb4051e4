// Tests of racelab::sched::ControlledScheduler: runs, blocking, deadlocks,
// step limits, exceptions, replay, determinism and the dfs schedule counts.
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

// `count` threads of `steps` steps each; thread t notes "a1", "a2", ... (t=0),
// "b1", ... (t=1), with a yield point between consecutive steps.
Threads stepping_threads(int count, int steps) {
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
std::string operations(const RunResult& result) {
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

Exploration explore_dfs(const Threads& threads, int bound) {
  ControlledScheduler scheduler;
  DfsStrategy dfs(bound);
  Exploration exploration;
  for (int guard = 0; guard < 100000; ++guard) {
    RunResult result = scheduler.run(threads, dfs);
    EXPECT_EQ(result.status, Status::kCompleted);
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

TEST(SchedulerTest, RunsEveryThreadToCompletion) {
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
  RandomStrategy random(1);
  RunResult result = scheduler.run({}, random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_TRUE(result.decisions.empty());
}

TEST(SchedulerTest, CountsPreemptionsAndRecordsTheTrace) {
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
    ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
  DfsStrategy dfs(2);
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
  ControlledScheduler scheduler;
  DfsStrategy dfs(2);
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
  DfsStrategy dfs(1);
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

// Takes a shared lock, then asks for the same lock exclusively.
void read_then_write(racelab::SharedMutex& mu) ABSL_NO_THREAD_SAFETY_ANALYSIS {
  mu.lock_shared();
  ControlledScheduler::note("holds the read lock");
  mu.lock();
}

TEST(SchedulerTest, SelfDeadlockIsReportedOnTheFirstSchedule) {
  racelab::SharedMutex mu("state.mu");
  Threads threads = {[&] { read_then_write(mu); }};
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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
  ControlledScheduler scheduler;
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

// The step limit counts decisions without progress: two threads that take
// a lock in turn 2,000 times each make ten times more decisions than it
// allows, and finish.
TEST(SchedulerTest, StepLimitLetsARunThatKeepsMakingProgressFinish) {
  ControlledScheduler scheduler(SchedulerOptions{.max_steps = 500});
  racelab::Mutex mu("counter");
  int count = 0;
  auto increments = [&] {
    for (int i = 0; i < 2000; ++i) {
      racelab::MutexLock hold(mu);
      ++count;
    }
  };
  PctStrategy pct(3, 7);
  RunResult result = scheduler.run({increments, increments}, pct);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_GT(result.decisions.size(), 5000u);
  EXPECT_EQ(count, 4000);
}

// max_total_steps ends a run that keeps making progress forever, as a
// length limit, not a livelock.
TEST(SchedulerTest, LengthLimitEndsAnEndlessRunThatMakesProgress) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 100, .max_total_steps = 3000});
  racelab::Mutex mu("counter");
  int count = 0;
  auto endless = [&] {
    for (;;) {
      racelab::MutexLock hold(mu);
      ++count;
    }
  };
  RandomStrategy random(5);
  RunResult result = scheduler.run({endless, endless}, random);
  EXPECT_EQ(result.status, Status::kLengthLimit);
  EXPECT_EQ(result.decisions.size(), 3000u);
  EXPECT_EQ(result.limit, 3000);
  EXPECT_NE(limit_summary(result.status, result.limit).find("not a livelock"),
            std::string::npos);
}

// Always runs the lowest-numbered thread it may: the poller below, as a
// strategy that favours it (pct drawing it the highest priority) would.
class LowestThreadFirst : public racelab::sched::Strategy {
 public:
  std::string_view name() const override { return "lowest-first"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int) override {
    return enabled.front();
  }
  bool end_schedule() override { return false; }
};

// A poll under a lock (lock, look, unlock) is a spin, not progress, while
// another thread could take the lock: the poller gives way at the fairness
// bound and the setter runs, even under a strategy that always favours the
// poller. Taking its own lock again counted as progress before, and such a
// run went on to the length limit.
TEST(SchedulerTest, APollUnderALockGivesWayToTheThreadItWaitsFor) {
  ControlledScheduler scheduler(
      SchedulerOptions{.max_steps = 5000, .max_total_steps = 200000});
  racelab::Mutex mu("flag");
  bool flag = false;
  Threads threads = {[&] {
                       for (bool seen = false; !seen;) {
                         racelab::MutexLock hold(mu);
                         seen = flag;
                       }
                     },
                     [&] {
                       racelab::MutexLock hold(mu);
                       flag = true;
                     }};
  LowestThreadFirst favours_the_poller;
  RunResult result = scheduler.run(threads, favours_the_poller);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_LT(result.decisions.size(), 1000u);
}

// A thread alone takes and releases its lock as long as it likes: with no
// other thread to take it, each taking is progress, not a livelock.
TEST(SchedulerTest, ALoneThreadRetakingItsLockIsNoLivelock) {
  ControlledScheduler scheduler(SchedulerOptions{.max_steps = 100});
  racelab::Mutex mu("counter");
  int count = 0;
  RandomStrategy random(3);
  RunResult result = scheduler.run({[&] {
                                     for (int i = 0; i < 1000; ++i) {
                                       racelab::MutexLock hold(mu);
                                       ++count;
                                     }
                                   }},
                                   random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(count, 1000);
}

// A poll that sleeps gives way even to a thread that has been spinning
// itself (past the fairness bound): thread 1 looks at `other` 200 times
// before it sets `flag`, and thread 0's sleeping poll never starves it,
// whatever priorities pct draws.
TEST(SchedulerTest, ASleepingPollGivesWayToASpinningThread) {
  ControlledScheduler scheduler(SchedulerOptions{.max_steps = 5000});
  std::atomic<int> flag{0};
  std::atomic<int> other{0};
  Threads threads = {
      [&] {
        while (flag.load() == 0) usleep(10);
      },
      [&] {
        int seen = 0;
        for (int i = 0; i < 200; ++i) seen += other.load();
        flag.store(seen + 1);
      },
  };
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    PctStrategy pct(seed, 3);
    flag.store(0);
    const RunResult result = scheduler.run(threads, pct);
    EXPECT_EQ(result.status, Status::kCompleted) << "seed " << seed;
  }
}

TEST(SchedulerTest, StepLimitStopsARunawayScheduleAndTheNextRunWorks) {
  ControlledScheduler scheduler(SchedulerOptions{.max_steps = 500});
  Threads spinning = {
      [] {
        // A yield changes nothing: no progress (and a point in every build,
        // where an atomic load is one only under TSan).
        for (;;) sched_yield();
      },
      [] { ControlledScheduler::note("done"); },
  };
  RandomStrategy random(2);
  for (int i = 0; i < 3; ++i) {
    RunResult result = scheduler.run(spinning, random);
    EXPECT_EQ(result.status, Status::kStepLimit);
    // 500 decisions in a row without progress, after thread 1's end.
    EXPECT_GE(result.decisions.size(), 500u);
    EXPECT_LE(result.decisions.size(), 510u);
    EXPECT_EQ(result.limit, 500);
    EXPECT_EQ(to_string(result.status), "step limit");
    RunResult normal = scheduler.run(stepping_threads(2, 3), random);
    EXPECT_EQ(normal.status, Status::kCompleted);
  }
}

TEST(SchedulerTest, FibersAreReusedAcrossManySchedulesAndDeadlocks) {
  ControlledScheduler scheduler;
  RandomStrategy random(77);
  for (int i = 0; i < 200; ++i) {
    if (i % 10 == 0) {
      racelab::SharedMutex mu("state.mu");
      Threads threads = {[&] { read_then_write(mu); },
                         [] { racelab::yield_point("x"); }};
      EXPECT_EQ(scheduler.run(threads, random).status, Status::kDeadlock);
    } else {
      EXPECT_EQ(scheduler.run(stepping_threads(3, 3), random).status,
                Status::kCompleted);
    }
  }
}

TEST(SchedulerTest, NestedRunIsRefused) {
  ControlledScheduler scheduler;
  RandomStrategy random(1);
  Threads threads = {[&] {
    RandomStrategy inner(2);
    scheduler.run({[] {}}, inner);
  }};
  RunResult result = scheduler.run(threads, random);
  ASSERT_EQ(result.thread_errors.size(), 1u);
  EXPECT_EQ(result.thread_errors[0],
            "thread 0 threw: ControlledScheduler::run called inside a "
            "controlled run");
}

// Outside a run, a note goes nowhere (no later run's trace holds it) and a
// yield point returns at once.
TEST(SchedulerTest, NoteOutsideARunIsIgnored) {
  ControlledScheduler::note("nobody listens");
  racelab::yield_point("stress mode: a no-op");
  ControlledScheduler scheduler;
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(
      {[] { ControlledScheduler::note("inside the run"); }}, first_enabled);
  ASSERT_EQ(result.status, Status::kCompleted);
  bool inside = false;
  for (const TraceRow& row : result.trace.rows) {
    EXPECT_EQ(row.text.find("nobody listens"), std::string::npos);
    inside = inside || row.text == "inside the run";
  }
  EXPECT_TRUE(inside);
}

// dfs over 2 threads of 2 steps ("a1 . a2" and "b1 . b2", a yield between):
// the 6 interleavings need 0 (a1 a2 b1 b2, b1 b2 a1 a2), 1 (a1 b1 b2 a2,
// b1 a1 a2 b2) or 2 (a1 b1 a2 b2, b1 a1 b2 a2) preemptions. Switching at the
// end of a thread is not a preemption.
TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundZero) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 0);
  EXPECT_EQ(exploration.schedules, 2);
  EXPECT_EQ(exploration.interleavings,
            (std::set<std::string>{"a1 a2 b1 b2", "b1 b2 a1 a2"}));
  EXPECT_EQ(exploration.max_preemptions, 0);
}

TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundOne) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 1);
  EXPECT_EQ(exploration.schedules, 4);
  EXPECT_EQ(exploration.interleavings,
            (std::set<std::string>{"a1 a2 b1 b2", "b1 b2 a1 a2", "a1 b1 b2 a2",
                                   "b1 a1 a2 b2"}));
  EXPECT_EQ(exploration.max_preemptions, 1);
}

TEST(DfsTest, TwoThreadsOfTwoStepsWithBoundTwo) {
  Exploration exploration = explore_dfs(stepping_threads(2, 2), 2);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
  EXPECT_EQ(exploration.max_preemptions, 2);
  // No more schedules exist with a larger bound.
  EXPECT_EQ(explore_dfs(stepping_threads(2, 2), 5).schedules, 6);
}

// 2 threads of 3 steps, bound 1: per first thread, no preemption or one at
// either of its 2 yields (the other thread then runs to its end): 2 * 3.
TEST(DfsTest, TwoThreadsOfThreeStepsWithBoundOne) {
  Exploration exploration = explore_dfs(stepping_threads(2, 3), 1);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
}

// Without a binding bound dfs enumerates every interleaving exactly once:
// 6!/(3!3!) = 20 and 6!/(2!2!2!) = 90.
TEST(DfsTest, UnboundedSearchEnumeratesEveryInterleavingOnce) {
  Exploration two = explore_dfs(stepping_threads(2, 3), 100);
  EXPECT_EQ(two.schedules, 20);
  EXPECT_EQ(two.interleavings.size(), 20u);
  Exploration three = explore_dfs(stepping_threads(3, 2), 100);
  EXPECT_EQ(three.schedules, 90);
  EXPECT_EQ(three.interleavings.size(), 90u);
}

// Threads without scheduling points only switch when they finish, which is
// never a preemption: bound 0 already gives all 3! orders.
TEST(DfsTest, SwitchesAtThreadEndsAreFree) {
  Exploration exploration = explore_dfs(stepping_threads(3, 1), 0);
  EXPECT_EQ(exploration.schedules, 6);
  EXPECT_EQ(exploration.interleavings.size(), 6u);
}

TEST(DfsTest, RestartsAfterExhaustion) {
  ControlledScheduler scheduler;
  DfsStrategy dfs(0);
  const Threads threads = stepping_threads(2, 2);
  EXPECT_TRUE(scheduler.run(threads, dfs).more_schedules);
  EXPECT_FALSE(scheduler.run(threads, dfs).more_schedules);
  EXPECT_EQ(operations(scheduler.run(threads, dfs)), "a1 a2 b1 b2");
}

}  // namespace
}  // namespace racelab::sched
