// ThreadSanitizer sees logical threads as real threads: two fibers' unlocked
// writes to one int are a data race although the run is serial, the same
// writes under a racelab::Mutex are not, an atomic the harness touches in
// both threads (a HarnessScope) orders nothing between them, and the caller
// may read everything after run() (join), even after a deadlock.
//
// Each scenario runs in a child process (this binary, re-executed with a
// filter for one of the DISABLED_ child tests, as GoogleTest's threadsafe
// death tests do): an expected TSan report must not fail the parent, and a
// missing or unexpected one is pinned to its scenario. Skipped when not built
// with TSan.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/sync.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_TEST_TSAN 1
#endif
#endif

extern char** environ;

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;

constexpr char kChildVariable[] = "RACELAB_SCHED_TEST_CHILD";
constexpr char kDataRace[] = "WARNING: ThreadSanitizer: data race";

bool in_child() { return std::getenv(kChildVariable) != nullptr; }

struct ChildRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved
};

// Runs the child test IsolatedChild.DISABLED_<name> of this binary.
ChildRun run_child(const std::string& name) {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) return {};
  path[length] = '\0';
  const std::string filter = "--gtest_filter=IsolatedChild.DISABLED_" + name;
  std::vector<std::string> arguments = {
      path, filter, "--gtest_also_run_disabled_tests", "--gtest_color=no"};
  // TSan options of the parent, but never stop at the first report.
  const char* tsan_options = std::getenv("TSAN_OPTIONS");
  std::vector<std::string> environment = {
      std::string(kChildVariable) + "=1",
      std::string("TSAN_OPTIONS=") + (tsan_options ? tsan_options : "") +
          " halt_on_error=0"};
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (std::strncmp(*variable, "TSAN_OPTIONS=", 13) != 0) {
      environment.emplace_back(*variable);
    }
  }
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execve(path, argv.data(), envp.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  ChildRun run;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(pipe_fds[0], buffer, sizeof(buffer));
    if (n > 0) {
      run.output.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return run;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++n;
  }
  return n;
}

#ifdef RACELAB_TEST_TSAN
#define SKIP_WITHOUT_TSAN()
#else
#define SKIP_WITHOUT_TSAN() GTEST_SKIP() << "needs a ThreadSanitizer build"
#endif

// --- the child scenarios ----------------------------------------------------

int g_unlocked = 0;  // written by two logical threads with no synchronization

// A few clean runs first, so the racy run reuses fibers that have history.
void warm_up(ControlledScheduler& scheduler) {
  RandomStrategy random(1);
  racelab::Mutex mu("warm.mu");
  int guarded = 0;
  Threads threads(2, [&] {
    racelab::MutexLock lock(mu);
    ++guarded;
  });
  for (int i = 0; i < 3; ++i) scheduler.run(threads, random);
  EXPECT_EQ(guarded, 6);
}

TEST(IsolatedChild, DISABLED_WritesInSeparateTurns) {
  if (!in_child()) GTEST_SKIP() << "runs as a child of TsanFiberTest";
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  warm_up(scheduler);
  Threads threads = {[] { g_unlocked = 1; }, [] { g_unlocked = 2; }};
  // Thread 0 finishes before thread 1 starts: still no happens-before.
  ReplayStrategy replay({0, 1});
  const RunResult result = scheduler.run(threads, replay);
  EXPECT_EQ(result.status, RunResult::Status::kCompleted);
  EXPECT_EQ(result.decisions, (std::vector<int>{0, 1}));
  EXPECT_EQ(g_unlocked, 2);
}

TEST(IsolatedChild, DISABLED_InterleavedWrites) {
  if (!in_child()) GTEST_SKIP() << "runs as a child of TsanFiberTest";
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  Threads threads = {
      [] {
        g_unlocked = 1;
        racelab::yield_point("between");
        g_unlocked = g_unlocked + 1;
      },
      [] { g_unlocked = 10; },
  };
  ReplayStrategy replay({0, 1, 0});
  const RunResult result = scheduler.run(threads, replay);
  EXPECT_EQ(result.status, RunResult::Status::kCompleted);
  EXPECT_EQ(g_unlocked, 11);
}

// Harness bookkeeping both threads touch: like the count of a shared_ptr
// that each thread's history entry copies.
std::atomic<int> g_harness_count{0};

TEST(IsolatedChild, DISABLED_HarnessAtomicsBetweenWrites) {
  if (!in_child()) GTEST_SKIP() << "runs as a child of TsanFiberTest";
  auto harness_increment = [] {
    HarnessScope harness;
    g_harness_count.fetch_add(1, std::memory_order_acq_rel);
  };
  Threads threads = {[&] {
                       g_unlocked = 1;
                       harness_increment();
                     },
                     [&] {
                       harness_increment();
                       g_unlocked = 2;
                     }};
  // Thread 0's write, then its increment, then thread 1's increment and its
  // write: were the increments seen, they would order the two writes.
  ReplayStrategy replay({0, 1});
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  const RunResult result = scheduler.run(threads, replay);
  EXPECT_EQ(result.status, RunResult::Status::kCompleted);
  EXPECT_EQ(g_harness_count.load(), 2);
  EXPECT_EQ(g_unlocked, 2);
}

int g_locked = 0;  // written under g_mutex only

TEST(IsolatedChild, DISABLED_LockedWrites) {
  if (!in_child()) GTEST_SKIP() << "runs as a child of TsanFiberTest";
  racelab::Mutex mu("g.mu");
  Threads threads = {
      [&] {
        racelab::MutexLock lock(mu);
        g_locked = 1;
        racelab::yield_point("inside");
        g_locked = g_locked + 1;
      },
      [&] {
        racelab::MutexLock lock(mu);
        g_locked = g_locked * 10;
      },
  };
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  PlainDfsStrategy dfs(3);
  int schedules = 0;
  for (;;) {
    g_locked = 0;  // the caller, between runs: after join, before spawn
    const RunResult result = scheduler.run(threads, dfs);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    EXPECT_TRUE(g_locked == 20 || g_locked == 2) << g_locked;
    ++schedules;
    if (!result.more_schedules) break;
  }
  EXPECT_GT(schedules, 2);
}

int g_before_deadlock[2] = {0, 0};

TEST(IsolatedChild, DISABLED_CallerReadsAfterDeadlock) {
  if (!in_child()) GTEST_SKIP() << "runs as a child of TsanFiberTest";
  racelab::Mutex a("a");
  racelab::Mutex b("b");
  Threads threads = {
      [&] {
        racelab::MutexLock first(a);
        g_before_deadlock[0] = 1;
        racelab::yield_point("between");
        racelab::MutexLock second(b);
      },
      [&] {
        racelab::MutexLock first(b);
        g_before_deadlock[1] = 2;
        racelab::yield_point("between");
        racelab::MutexLock second(a);
      },
  };
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  ReplayStrategy replay({0, 0, 0, 1, 1, 1});
  const RunResult result = scheduler.run(threads, replay);
  ASSERT_EQ(result.status, RunResult::Status::kDeadlock);
  // The abandoned threads were joined: reading and writing what they wrote is
  // not a race.
  EXPECT_EQ(g_before_deadlock[0] + g_before_deadlock[1], 3);
  g_before_deadlock[0] = 0;
  g_before_deadlock[1] = 0;
  // The recycled fibers work; their new TSan contexts carry no old history.
  RandomStrategy random(4);
  Threads clean = {[] { g_before_deadlock[0] = 5; },
                   [] { g_before_deadlock[1] = 6; }};
  EXPECT_EQ(scheduler.run(clean, random).status, RunResult::Status::kCompleted);
  EXPECT_EQ(g_before_deadlock[0] + g_before_deadlock[1], 11);
}

// --- the parent tests -------------------------------------------------------

TEST(TsanFiberTest, UnlockedWritesInSeparateTurnsAreARace) {
  SKIP_WITHOUT_TSAN();
  const ChildRun child = run_child("WritesInSeparateTurns");
  EXPECT_EQ(count(child.output, kDataRace), 1) << child.output;
  EXPECT_NE(child.output.find("racelab thread 0"), std::string::npos)
      << child.output;
  EXPECT_NE(child.output.find("racelab thread 1"), std::string::npos)
      << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos)
      << child.output;
  EXPECT_EQ(child.exit_code, 66) << child.output;  // TSan's exit code
}

TEST(TsanFiberTest, InterleavedUnlockedWritesAreARace) {
  SKIP_WITHOUT_TSAN();
  const ChildRun child = run_child("InterleavedWrites");
  EXPECT_GE(count(child.output, kDataRace), 1) << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos)
      << child.output;
}

TEST(TsanFiberTest, LockedWritesAreNotARace) {
  SKIP_WITHOUT_TSAN();
  const ChildRun child = run_child("LockedWrites");
  EXPECT_EQ(child.output.find("ThreadSanitizer"), std::string::npos)
      << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos)
      << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
}

TEST(TsanFiberTest, HarnessAtomicsOrderNothingBetweenThreads) {
  SKIP_WITHOUT_TSAN();
  const ChildRun child = run_child("HarnessAtomicsBetweenWrites");
  EXPECT_EQ(count(child.output, kDataRace), 1) << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos)
      << child.output;
  EXPECT_EQ(child.exit_code, 66) << child.output;  // TSan's exit code
}

TEST(TsanFiberTest, CallerMayReadWhatDeadlockedThreadsWrote) {
  SKIP_WITHOUT_TSAN();
  const ChildRun child = run_child("CallerReadsAfterDeadlock");
  EXPECT_EQ(child.output.find("ThreadSanitizer"), std::string::npos)
      << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos)
      << child.output;
  EXPECT_EQ(child.exit_code, 0) << child.output;
}

}  // namespace
}  // namespace racelab::sched
