// Tests of the blocking primitives the controlled scheduler models beyond
// locks and condition variables: pthread barriers, POSIX semaphores, the
// non-portable joins (harness/core/src/sync/interpose_waits.cc), the model of
// time of the timed waits (near and far deadlines) and robust mutexes.
#include <errno.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <time.h>

#include <array>
#include <atomic>
#include <set>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;
using Status = RunResult::Status;

// Runs `threads` under dfs with preemption bound `bound`, calling `check` after
// each schedule, until the search is exhausted or `check` returns false;
// returns the number of schedules run.
template <class Check>
int explore_dfs(const Threads& threads, int bound, Check check,
                SchedulerOptions options = {.substrate = Substrate::kFibers}) {
  ControlledScheduler scheduler(options);
  PlainDfsStrategy dfs(bound);
  int schedules = 0;
  for (; schedules < 20000; ++schedules) {
    const RunResult result = scheduler.run(threads, dfs);
    if (!check(result)) return schedules + 1;
    if (!result.more_schedules) return schedules + 1;
  }
  ADD_FAILURE() << "the search did not end";
  return schedules;
}

// A deadline `seconds` from now on CLOCK_REALTIME (0: now).
timespec realtime_in(int seconds) {
  timespec deadline{};
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += seconds;
  return deadline;
}

bool waited(const RunResult& result, const std::string& text) {
  for (const TraceRow& row : result.trace.rows) {
    if (row.kind == TraceKind::kLockWaited && row.text == text) return true;
  }
  return false;
}

// Every round, no thread leaves the barrier before all arrived, and exactly
// one gets PTHREAD_BARRIER_SERIAL_THREAD.
TEST(SchedulerBlockingTest, BarrierLetsThreadsGoTogetherWithOneSerialThread) {
  constexpr int kThreads = 3;
  constexpr int kRounds = 2;
  pthread_barrier_t barrier;
  ASSERT_EQ(pthread_barrier_init(&barrier, nullptr, kThreads), 0);
  std::array<std::atomic<int>, kThreads> arrived{};
  std::array<int, kRounds> serial{};
  bool early = false;
  Threads threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.push_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        arrived[t].store(round + 1, std::memory_order_relaxed);
        const int result = pthread_barrier_wait(&barrier);
        for (const std::atomic<int>& other : arrived) {
          if (other.load(std::memory_order_relaxed) <= round) early = true;
        }
        if (result == PTHREAD_BARRIER_SERIAL_THREAD) {
          ++serial[round];
        } else if (result != 0) {
          early = true;
        }
      }
    });
  }
  int blocked = 0;
  const int schedules = explore_dfs(threads, 1, [&](const RunResult& result) {
    EXPECT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
    EXPECT_FALSE(early);
    for (int round = 0; round < kRounds; ++round) {
      EXPECT_EQ(serial[round], 1) << "round " << round;
    }
    if (waited(result, "waits on 'barrier 1'")) ++blocked;
    for (std::atomic<int>& slot : arrived) slot = 0;
    serial = {};
    return !early;
  });
  EXPECT_EQ(pthread_barrier_destroy(&barrier), 0);
  EXPECT_GT(schedules, 1);
  EXPECT_EQ(blocked, schedules);
}

TEST(SchedulerBlockingTest, BarrierShortOfThreadsIsADeadlock) {
  pthread_barrier_t barrier;
  ASSERT_EQ(pthread_barrier_init(&barrier, nullptr, 3), 0);
  Threads threads = {[&] { pthread_barrier_wait(&barrier); },
                     [&] { pthread_barrier_wait(&barrier); }};
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  const RunResult result = scheduler.run(threads, random);
  EXPECT_EQ(result.status, Status::kDeadlock);
  EXPECT_EQ(result.deadlock_report,
            "thread 0 waits on 'barrier 1', and no thread that could release "
            "it can run\n"
            "thread 1 waits on 'barrier 1', and no thread that could release "
            "it can run");
}

TEST(SchedulerBlockingTest, SemaphoreWaitReturnsOnlyAfterThePost) {
  sem_t sem;
  std::vector<std::string> order;
  Threads threads = {[&] {
                       EXPECT_EQ(sem_wait(&sem), 0);
                       order.push_back("got");
                     },
                     [&] {
                       order.push_back("post");
                       EXPECT_EQ(sem_post(&sem), 0);
                     }};
  int blocked = 0;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  const int schedules = explore_dfs(threads, 100, [&](const RunResult& result) {
    EXPECT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
    EXPECT_EQ(order, (std::vector<std::string>{"post", "got"}));
    if (waited(result, "waits on 'semaphore 1'")) ++blocked;
    int value = -1;
    sem_getvalue(&sem, &value);
    EXPECT_EQ(value, 0);
    order.clear();
    return true;
  });
  sem_destroy(&sem);
  EXPECT_GT(schedules, 1);
  EXPECT_GT(blocked, 0);
  EXPECT_LT(blocked, schedules);
}

TEST(SchedulerBlockingTest, TrywaitOnZeroFailsWithEagainWithoutWaiting) {
  sem_t sem;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  std::vector<int> results;
  Threads threads = {[&] {
    results.push_back(sem_trywait(&sem) == 0 ? 0 : errno);
    sem_post(&sem);
    results.push_back(sem_trywait(&sem) == 0 ? 0 : errno);
  }};
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  RandomStrategy random(1);
  const RunResult result = scheduler.run(threads, random);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(results, (std::vector<int>{EAGAIN, 0}));
  sem_destroy(&sem);
}

// A timed wait whose deadline is near is still schedulable while it waits:
// picked before the post, it times out.
TEST(SchedulerBlockingTest, SemaphoreTimedWaitTimesOutOnlyWhenScheduledFirst) {
  sem_t sem;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  const timespec deadline = realtime_in(0);
  int result = 0;
  Threads threads = {
      [&] { result = sem_timedwait(&sem, &deadline) == 0 ? 0 : errno; },
      [&] { sem_post(&sem); }};
  std::set<int> results;
  explore_dfs(threads, 100, [&](const RunResult& run) {
    EXPECT_EQ(run.status, Status::kCompleted);
    results.insert(result);
    while (sem_trywait(&sem) == 0) {
    }
    return true;
  });
  EXPECT_EQ(results, (std::set<int>{0, ETIMEDOUT}));
  sem_destroy(&sem);
}

// A far deadline (beyond the horizon) never times out while a thread that
// could post can still run: every schedule takes the post.
TEST(SchedulerBlockingTest, SemaphoreTimedWaitWithAFarDeadlineWaitsForThePost) {
  sem_t sem;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  const timespec deadline = realtime_in(3600);
  int result = 0;
  Threads threads = {
      [&] { result = sem_timedwait(&sem, &deadline) == 0 ? 0 : errno; },
      [&] { sem_post(&sem); }};
  std::set<int> results;
  const int schedules = explore_dfs(threads, 100, [&](const RunResult& run) {
    EXPECT_EQ(run.status, Status::kCompleted);
    results.insert(result);
    while (sem_trywait(&sem) == 0) {
    }
    return true;
  });
  EXPECT_EQ(results, (std::set<int>{0}));
  EXPECT_GT(schedules, 1);
  sem_destroy(&sem);
}

// When every thread waits, far deadlines pass, the earliest first, in every
// schedule: no deadlock, and the same order whichever thread waited first.
TEST(SchedulerBlockingTest, FarDeadlinesPassInTheirOrderWhenEveryThreadWaits) {
  sem_t never;
  ASSERT_EQ(sem_init(&never, 0, 0), 0);
  const timespec later = realtime_in(7200);
  const timespec sooner = realtime_in(3600);
  // A timeout orders nothing (TSan sees no edge): atomics record the order.
  std::atomic<int> first{-1};
  std::atomic<int> timeouts{0};
  auto waiter = [&](const timespec* deadline, int id) {
    return [&first, &timeouts, &never, deadline, id] {
      if (sem_timedwait(&never, deadline) != 0 && errno == ETIMEDOUT) {
        int none = -1;
        first.compare_exchange_strong(none, id);
        timeouts.fetch_add(1);
      }
    };
  };
  Threads threads = {waiter(&later, 0), waiter(&sooner, 1)};
  const int schedules = explore_dfs(threads, 100, [&](const RunResult& run) {
    EXPECT_EQ(run.status, Status::kCompleted) << run.deadlock_report;
    EXPECT_EQ(first.load(), 1);
    EXPECT_EQ(timeouts.load(), 2);
    first = -1;
    timeouts = 0;
    return true;
  });
  EXPECT_GT(schedules, 1);
  sem_destroy(&never);
}

// A far deadline also passes while the threads that can run only spin (the
// step limit would end the run): the waiter times out, and the spinner,
// which waits for it, ends. The spin yields: an atomic load is a scheduling
// point only in a ThreadSanitizer build, a yield in every build.
TEST(SchedulerBlockingTest, AFarDeadlinePassesWhileTheOtherThreadsOnlySpin) {
  sem_t never;
  ASSERT_EQ(sem_init(&never, 0, 0), 0);
  const timespec deadline = realtime_in(3600);
  std::atomic<bool> timed_out{false};
  Threads threads = {[&] {
                       timed_out = sem_timedwait(&never, &deadline) != 0 &&
                                   errno == ETIMEDOUT;
                     },
                     [&] {
                       while (!timed_out.load()) sched_yield();
                     }};
  explore_dfs(
      threads, 0,
      [&](const RunResult& run) {
        EXPECT_EQ(run.status, Status::kCompleted);
        EXPECT_TRUE(timed_out);
        timed_out = false;
        return true;
      },
      SchedulerOptions{.max_steps = 500, .substrate = Substrate::kFibers});
  sem_destroy(&never);
}

// Semaphores are not fair: a thread that waits first may be overtaken by a
// later one. A protocol that assumes first come, first served breaks only in
// the schedules where both wait before the post and the second is woken
// first; dfs finds one.
TEST(SchedulerBlockingTest, DfsFindsAWaiterOvertakenAtASemaphore) {
  sem_t sem;
  ASSERT_EQ(sem_init(&sem, 0, 0), 0);
  std::atomic<int> arrivals{0};
  std::atomic<int> served{0};
  std::atomic<bool> overtaken{false};
  auto waiter = [&] {
    const int arrival = arrivals.fetch_add(1);
    sem_wait(&sem);
    if (served.fetch_add(1) != arrival) overtaken = true;
  };
  Threads threads = {waiter, waiter, [&] {
                       while (arrivals.load() < 2) sched_yield();
                       sem_post(&sem);
                       sem_post(&sem);
                     }};
  const int schedules = explore_dfs(threads, 2, [&](const RunResult& result) {
    EXPECT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
    if (overtaken) return false;
    arrivals = 0;
    served = 0;
    return true;
  });
  EXPECT_TRUE(overtaken) << "after " << schedules << " schedules";
  EXPECT_GT(schedules, 1);
  sem_destroy(&sem);
}

void* set_flag(void* flag) {
  *static_cast<int*>(flag) = 1;
  return nullptr;
}

// pthread_timedjoin_np with a near deadline waits as a join that may time
// out: picked before the thread ends, it returns ETIMEDOUT, and a later join
// still joins it. With a far deadline it waits for the thread's end.
void explore_timed_join(int seconds, const std::set<int>& expected) {
  std::set<int> results;
  int flag = 0;
  Threads threads = {[&] {
    pthread_t thread;
    ASSERT_EQ(pthread_create(&thread, nullptr, set_flag, &flag), 0);
    const timespec deadline = realtime_in(seconds);
    const int result = pthread_timedjoin_np(thread, nullptr, &deadline);
    results.insert(result);
    if (result == 0) {
      EXPECT_EQ(flag, 1);
    } else {
      EXPECT_EQ(result, ETIMEDOUT);
      EXPECT_EQ(pthread_join(thread, nullptr), 0);
    }
  }};
  explore_dfs(
      threads, 100,
      [&](const RunResult& run) {
        EXPECT_EQ(run.status, Status::kCompleted) << run.deadlock_report;
        flag = 0;
        return true;
      },
      SchedulerOptions{.substrate = Substrate::kOsThreads});
  EXPECT_EQ(results, expected);
}

TEST(SchedulerBlockingTest, TimedJoinTimesOutOnlyAsASchedulingChoice) {
  explore_timed_join(0, {0, ETIMEDOUT});
}

TEST(SchedulerBlockingTest, TimedJoinWithAFarDeadlineWaitsForTheThread) {
  explore_timed_join(3600, {0});
}

pthread_mutex_t g_robust;

pthread_mutex_t* robust_mutex() {
  static const bool made = [] {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&g_robust, &attr);
    pthread_mutexattr_destroy(&attr);
    return true;
  }();
  static_cast<void>(made);
  return &g_robust;
}

void* lock_and_end(void*) {
  pthread_mutex_lock(robust_mutex());
  return nullptr;
}

// A thread that ends holding a robust mutex releases it: in every schedule
// the other thread's lock, whether it waited or came after the end, returns
// EOWNERDEAD, and after pthread_mutex_consistent the mutex works on.
TEST(SchedulerBlockingTest, ARobustMutexWhoseOwnerEndedGivesEownerdead) {
  robust_mutex();  // made before the runs
  std::set<int> results;
  Threads threads = {[&] {
    pthread_t owner;
    ASSERT_EQ(pthread_create(&owner, nullptr, lock_and_end, nullptr), 0);
    int result = pthread_mutex_lock(robust_mutex());
    const bool first = result == 0;
    if (first) {  // taken before the owner: it waits, then gets it
      pthread_mutex_unlock(robust_mutex());
      pthread_join(owner, nullptr);
      result = pthread_mutex_lock(robust_mutex());
    }
    results.insert(result);
    EXPECT_EQ(pthread_mutex_consistent(robust_mutex()), 0);
    EXPECT_EQ(pthread_mutex_unlock(robust_mutex()), 0);
    if (!first) pthread_join(owner, nullptr);
  }};
  const int schedules = explore_dfs(
      threads, 100,
      [&](const RunResult& run) {
        EXPECT_EQ(run.status, Status::kCompleted) << run.deadlock_report;
        return true;
      },
      SchedulerOptions{.substrate = Substrate::kOsThreads});
  EXPECT_EQ(results, (std::set<int>{EOWNERDEAD}));
  EXPECT_GT(schedules, 1);
}

TEST(SchedulerBlockingTest, TryJoinIsBusyUntilTheThreadEnds) {
  std::set<int> results;
  int flag = 0;
  Threads threads = {[&] {
    pthread_t thread;
    ASSERT_EQ(pthread_create(&thread, nullptr, set_flag, &flag), 0);
    const int result = pthread_tryjoin_np(thread, nullptr);
    results.insert(result);
    if (result == 0) {
      EXPECT_EQ(flag, 1);
    } else {
      EXPECT_EQ(result, EBUSY);
      EXPECT_EQ(pthread_join(thread, nullptr), 0);
    }
  }};
  explore_dfs(
      threads, 100,
      [&](const RunResult& run) {
        EXPECT_EQ(run.status, Status::kCompleted) << run.deadlock_report;
        flag = 0;
        return true;
      },
      SchedulerOptions{.substrate = Substrate::kOsThreads});
  EXPECT_EQ(results, (std::set<int>{0, EBUSY}));
}

}  // namespace
}  // namespace racelab::sched
