// racelab::explore's contract beyond the programs table: what the body does
// to its process is a finding and never reaches the caller; the saved
// schedule replays; bad options and files are one-line errors;
// RACELAB_TEST passes a correct body.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "racelab/explore.h"
#include "racelab/gtest.h"
#include "racelab/internal/input_error.h"

namespace racelab {
namespace {

ExploreOptions quick(const char* name) {
  ExploreOptions options;
  options.budget = 50;
  options.hang_seconds = 2;
  options.name = name;
  return options;
}

bool has(const ExploreResult& result, FindingKind kind) {
  for (const Finding& f : result.findings) {
    if (f.kind == kind) return true;
  }
  return false;
}

TEST(ExploreApi, AbortIsACrashFindingAndTheCallerSurvives) {
  const ExploreResult result = explore([] { std::abort(); }, quick("abort"));
  ASSERT_TRUE(has(result, FindingKind::kCrash)) << result.message;
  EXPECT_NE(result.findings[0].summary.find("SIGABRT"), std::string::npos)
      << result.message;
  EXPECT_EQ(result.first_failing, 0);
  EXPECT_FALSE(result.schedule_file.empty());
}

TEST(ExploreApi, SegfaultInAThreadIsACrashFinding) {
  const ExploreResult result = explore(
      [] {
        std::thread t([] {
          volatile int* nowhere = nullptr;
          *nowhere = 1;
        });
        t.join();
      },
      quick("segv"));
  EXPECT_TRUE(has(result, FindingKind::kCrash)) << result.message;
}

TEST(ExploreApi, AnExceptionNobodyCatchesIsACrashFinding) {
  const ExploreResult result = explore(
      [] {
        std::thread t([] { throw std::runtime_error("boom"); });
        t.join();
      },
      quick("throw"));
  EXPECT_TRUE(has(result, FindingKind::kCrash)) << result.message;
}

TEST(ExploreApi, AThreadBlockedWhereTheSchedulerCannotSeeIsAHang) {
  const ExploreResult result = explore(
      [] {
        int ends[2];  // a pipe nobody writes: a read invisible to racelab
        if (pipe(ends) != 0) return;
        char byte;
        [[maybe_unused]] const ssize_t got = read(ends[0], &byte, 1);
      },
      quick("hang"));
  ASSERT_TRUE(has(result, FindingKind::kTimeout)) << result.message;
  EXPECT_NE(result.findings[0].summary.find("no scheduling decision"),
            std::string::npos);
}

TEST(ExploreApi, ALivelockEndsAtTheStepLimit) {
  ExploreOptions options = quick("livelock");
  options.max_steps = 2000;
  const ExploreResult result = explore(
      [] {
        std::atomic<bool> never{false};
        std::thread t([&] {
          while (!never.load()) std::this_thread::yield();
        });
        while (!never.load()) std::this_thread::yield();
        t.join();
      },
      options);
  ASSERT_TRUE(has(result, FindingKind::kTimeout)) << result.message;
  // The finding says what shows that nobody can progress.
  EXPECT_NE(result.findings[0].summary.find(
                "polled without progress since the last progress"),
            std::string::npos)
      << result.message;
}

// Two threads that each hold one lock and poll the other's with try_lock,
// backing off with a yield: in the schedules where both hold their own lock
// before either polls, neither can progress (a livelock, with its evidence).
TEST(ExploreApi, TwoThreadsBackingOffInATryLockLoopAreALivelock) {
  ExploreOptions options = quick("trylock_livelock");
  options.max_steps = 2000;
  options.budget = 50;
  const ExploreResult result = explore(
      [] {
        std::mutex a;
        std::mutex b;
        std::thread t([&] {
          const std::lock_guard<std::mutex> mine(b);
          while (!a.try_lock()) std::this_thread::yield();
          a.unlock();
        });
        {
          const std::lock_guard<std::mutex> mine(a);
          while (!b.try_lock()) std::this_thread::yield();
          b.unlock();
        }
        t.join();
      },
      options);
  ASSERT_TRUE(has(result, FindingKind::kTimeout)) << result.message;
  for (const Finding& finding : result.findings) {
    if (finding.kind != FindingKind::kTimeout) continue;
    EXPECT_NE(finding.summary.find("livelock"), std::string::npos)
        << result.message;
    EXPECT_NE(finding.summary.find("polled without progress"),
              std::string::npos)
        << result.message;
  }
}

TEST(ExploreApi, TheSavedScheduleReplaysTheSameDecisions) {
  auto body = [] {
    std::mutex a, b;
    std::thread t([&] {
      std::lock_guard<std::mutex> first(b);
      std::lock_guard<std::mutex> second(a);
    });
    {
      std::lock_guard<std::mutex> first(a);
      std::lock_guard<std::mutex> second(b);
    }
    t.join();
  };
  ExploreOptions options = quick("replay");
  options.strategy = "dfs";
  // TSan's lock-order detector reports the inversion already in a schedule
  // that does not deadlock; this test is about the scheduler's own report.
  options.tsan = false;
  const ExploreResult found = explore(body, options);
  ASSERT_TRUE(has(found, FindingKind::kDeadlock)) << found.message;
  // The report names the cycle and where each lock was first taken.
  EXPECT_NE(found.message.find("waits for 'mutex"), std::string::npos)
      << found.message;
  EXPECT_NE(found.message.find("first taken in"), std::string::npos)
      << found.message;
  const ExploreResult again = replay(body, found.schedule_file, options);
  EXPECT_TRUE(has(again, FindingKind::kDeadlock)) << again.message;
  EXPECT_EQ(again.decisions, found.decisions);
}

TEST(ExploreApi, BadOptionsAndFilesAreOneLineErrors) {
  ExploreOptions options;
  options.strategy = "bogus";
  EXPECT_THROW(explore([] {}, options), std::invalid_argument);
  options = {};
  options.budget = 0;
  EXPECT_THROW(explore([] {}, options), std::invalid_argument);
  EXPECT_THROW(replay([] {}, "/nonexistent/racelab.schedule"), InputError);
  const std::string path =
      ::testing::TempDir() + "/racelab-explore-api-not-a-schedule";
  std::ofstream(path) << "not a schedule\n";
  EXPECT_ANY_THROW(replay([] {}, path));
}

TEST(ExploreApi, DfsThatFinishesSaysSoExhaustively) {
  ExploreOptions options = quick("dfs");
  options.strategy = "dfs";
  options.budget = 100000;
  const ExploreResult result = explore(
      [] {
        std::mutex mu;
        int n = 0;
        std::thread t([&] {
          std::lock_guard<std::mutex> lock(mu);
          ++n;
        });
        {
          std::lock_guard<std::mutex> lock(mu);
          ++n;
        }
        t.join();
      },
      options);
  EXPECT_FALSE(result.found()) << result.message;
  EXPECT_TRUE(result.exhausted);
  EXPECT_NE(result.message.find("exhaustively"), std::string::npos);
}

// The macro itself: a correct body passes.
RACELAB_TEST(ExploreMacro, TwoLockedIncrements) {
  std::mutex mu;
  int balance = 0;
  std::thread a([&] {
    std::lock_guard<std::mutex> lock(mu);
    ++balance;
  });
  std::thread b([&] {
    std::lock_guard<std::mutex> lock(mu);
    ++balance;
  });
  a.join();
  b.join();
  if (balance != 2) std::abort();
}

}  // namespace
}  // namespace racelab
