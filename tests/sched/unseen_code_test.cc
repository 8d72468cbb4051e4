// Tests of the scheduler's rule for code no sanitizer instruments
// (SchedulingHooks::ran_unseen_code, fed by interpose_stdlib.cc): two calls
// of different threads that reach the same memory, one of them writing,
// must hold a lock in common that one of them held exclusively, or be
// ordered by a start or a join; otherwise the run records an
// UnmodelledBlock naming the code, and a search is not exhaustive. The
// calls here are told to the scheduler directly (what the interposed
// libstdc++ entry points tell it), so no real unseen code runs.
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;

int g_list = 0;  // the memory the calls reach (its address only)

UnseenCall call_on(const void* memory, bool writes) {
  UnseenCall call;
  call.what = "std::list's _List_node_base::_M_transfer (splice)";
  call.library = "libstdc++.so.6";
  call.writes = writes;
  call.memory[call.count++] = memory;
  return call;
}

// The notes of every schedule of the threads `make` gives (dfs over the
// whole tree).
std::vector<std::string> notes_of(
    const std::function<Threads(ControlledScheduler&)>& make,
    SchedulerOptions options = {}) {
  std::vector<std::string> notes;
  ControlledScheduler scheduler(options);
  DfsStrategy dfs;
  for (int schedule = 0; schedule < 1000; ++schedule) {
    const RunResult result = scheduler.run(make(scheduler), dfs);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    for (const UnmodelledBlock& block : result.unmodelled_blocks)
      notes.push_back(block.where);
    if (!result.more_schedules) break;
  }
  return notes;
}

TEST(UnseenCodeTest, WritesUnderASharedLockAreNoted) {
  std::shared_mutex lock;
  const std::vector<std::string> notes = notes_of([&](ControlledScheduler& s) {
    auto body = [&s, &lock] {
      std::shared_lock<std::shared_mutex> reading(lock);
      s.ran_unseen_code(call_on(&g_list, /*writes=*/true));
    };
    return Threads{body, body};
  });
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("_M_transfer (splice) in libstdc++.so.6 on memory "
                          "thread"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("no lock ordering the two"), std::string::npos)
      << notes[0];
}

TEST(UnseenCodeTest, WritesUnderAnExclusiveLockAreOrdered) {
  std::shared_mutex lock;
  const std::vector<std::string> notes = notes_of([&](ControlledScheduler& s) {
    auto writer = [&s, &lock] {
      std::unique_lock<std::shared_mutex> writing(lock);
      s.ran_unseen_code(call_on(&g_list, /*writes=*/true));
    };
    auto reader = [&s, &lock] {
      std::shared_lock<std::shared_mutex> reading(lock);
      s.ran_unseen_code(call_on(&g_list, /*writes=*/false));
    };
    return Threads{writer, reader};
  });
  EXPECT_TRUE(notes.empty()) << notes.front();
}

TEST(UnseenCodeTest, ReadsNeedNoLock) {
  const std::vector<std::string> notes = notes_of([&](ControlledScheduler& s) {
    auto reader = [&s] { s.ran_unseen_code(call_on(&g_list, false)); };
    return Threads{reader, reader};
  });
  EXPECT_TRUE(notes.empty()) << notes.front();
}

TEST(UnseenCodeTest, DifferentLocksOrderNothing) {
  std::mutex a;
  std::mutex b;
  const std::vector<std::string> notes = notes_of([&](ControlledScheduler& s) {
    return Threads{[&s, &a] {
                     std::lock_guard<std::mutex> held(a);
                     s.ran_unseen_code(call_on(&g_list, true));
                   },
                   [&s, &b] {
                     std::lock_guard<std::mutex> held(b);
                     s.ran_unseen_code(call_on(&g_list, true));
                   }};
  });
  EXPECT_FALSE(notes.empty());
}

// Whole-program threads: what the creator does before it starts a thread,
// and after it joined it, is ordered with the thread's calls; what it does
// while the thread runs is not, even when the thread has already ended
// (ended is not joined).
TEST(UnseenCodeTest, StartsAndJoinsOrderButAnEndDoesNot) {
  SchedulerOptions options;
  options.substrate = Substrate::kOsThreads;
  auto worker = [](void* scheduler) -> void* {
    static_cast<ControlledScheduler*>(scheduler)->ran_unseen_code(
        call_on(&g_list, true));
    return nullptr;
  };
  const std::vector<std::string> ordered = notes_of(
      [&](ControlledScheduler& s) {
        return Threads{[&s, worker] {
          s.ran_unseen_code(call_on(&g_list, true));
          pthread_t thread;
          ASSERT_EQ(pthread_create(&thread, nullptr, worker, &s), 0);
          ASSERT_EQ(pthread_join(thread, nullptr), 0);
          s.ran_unseen_code(call_on(&g_list, true));
        }};
      },
      options);
  EXPECT_TRUE(ordered.empty()) << ordered.front();

  const std::vector<std::string> concurrent = notes_of(
      [&](ControlledScheduler& s) {
        return Threads{[&s, worker] {
          pthread_t thread;
          ASSERT_EQ(pthread_create(&thread, nullptr, worker, &s), 0);
          s.ran_unseen_code(call_on(&g_list, true));
          ASSERT_EQ(pthread_join(thread, nullptr), 0);
        }};
      },
      options);
  EXPECT_FALSE(concurrent.empty());
}

}  // namespace
}  // namespace racelab::sched
