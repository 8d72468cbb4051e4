// Tests of a strategy in another process (remote_strategy.h): through the
// mailbox, dfs searches the same schedules as in process, and the server
// refuses records it cannot trust.
#include "racelab/remote_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/program_channel.h"
#include "racelab/sync.h"

namespace racelab::sched {
namespace {

using program_channel::Mailbox;
using Threads = std::vector<std::function<void()>>;

struct Search {
  std::vector<std::vector<int>> schedules;  // the decisions of each
  std::vector<int> outcomes;
  bool exhausted = false;
};

// Runs schedules of `threads` until `strategy` has no more (or 1000), with
// the strategy in this thread (remote = false) or behind a mailbox served by
// a StrategyServer's thread (remote = true).
Search search(const Threads& threads, Strategy& strategy, bool remote,
              const std::function<int()>& outcome) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  auto mailbox = std::make_unique<Mailbox>();
  Search found;
  for (int i = 0; i < 1000; ++i) {
    RunResult run;
    if (remote) {
      StrategyServer server(mailbox.get(), &strategy);
      RemoteStrategy proxy(mailbox.get(), /*trace=*/false);
      run = scheduler.run(threads, proxy);
      server.stop();
      EXPECT_TRUE(server.began());
      EXPECT_TRUE(server.ended());
      EXPECT_EQ(server.error(), "");
    } else {
      strategy.set_records_trace(false);
      run = scheduler.run(threads, strategy);
    }
    EXPECT_EQ(run.status, RunResult::Status::kCompleted);
    found.schedules.push_back(run.decisions);
    found.outcomes.push_back(outcome());
    if (!run.more_schedules) {
      found.exhausted = true;
      break;
    }
  }
  return found;
}

TEST(RemoteStrategyTest, DfsSearchesTheSameSchedulesThroughTheMailbox) {
  // Three threads, two locks, a lost update between two of them: the
  // partial-order reduction needs the footprints and next accesses, which
  // travel through the mailbox too.
  racelab::Mutex a("a");
  racelab::Mutex b("b");
  int balance = 0;
  int other = 0;
  auto deposit = [&] {
    int seen;
    {
      racelab::MutexLock lock(a);
      seen = balance;
    }
    racelab::MutexLock lock(a);
    balance = seen + 1;
  };
  const Threads threads = {deposit, deposit, [&] {
                             racelab::MutexLock lock(b);
                             ++other;
                           }};
  auto outcome = [&] {
    const int result = balance;
    balance = 0;
    other = 0;
    return result;
  };
  DfsStrategy local;
  const Search here = search(threads, local, false, outcome);
  DfsStrategy served;
  const Search there = search(threads, served, true, outcome);
  EXPECT_TRUE(here.exhausted);
  EXPECT_TRUE(there.exhausted);
  EXPECT_EQ(there.schedules, here.schedules);
  EXPECT_EQ(there.outcomes, here.outcomes);
  // The search reaches the lost update (1) and the right sum (2).
  EXPECT_NE(std::find(there.outcomes.begin(), there.outcomes.end(), 1),
            there.outcomes.end());
  EXPECT_NE(std::find(there.outcomes.begin(), there.outcomes.end(), 2),
            there.outcomes.end());
}

// The program's end asks for the threads' next accesses exactly when
// racelab's strategy wants them (dfs does, random does not), so a program
// under random or pct sends no access records.
TEST(RemoteStrategyTest, NextAccessesAreSentOnlyWhenTheStrategyWantsThem) {
  auto mailbox = std::make_unique<Mailbox>();
  {
    DfsStrategy dfs;
    StrategyServer server(mailbox.get(), &dfs);
    RemoteStrategy proxy(mailbox.get(), /*trace=*/false);
    EXPECT_TRUE(proxy.wants_next_accesses());
  }
  {
    RandomStrategy random(1);
    StrategyServer server(mailbox.get(), &random);
    RemoteStrategy proxy(mailbox.get(), /*trace=*/false);
    EXPECT_FALSE(proxy.wants_next_accesses());
  }
}

// Sends `words` as one batch, as a program would, and returns whether the
// server marked it failed.
bool send_raw(Mailbox& mailbox, const std::vector<std::int64_t>& words,
              std::string* error) {
  RandomStrategy strategy(1);
  StrategyServer server(&mailbox, &strategy);
  std::copy(words.begin(), words.end(), mailbox.words);
  mailbox.size = static_cast<std::int32_t>(words.size());
  const std::uint32_t number = mailbox.request + 1;
  __atomic_store_n(&mailbox.request, number, __ATOMIC_RELEASE);
  while (__atomic_load_n(&mailbox.answer, __ATOMIC_ACQUIRE) != number) {
    std::this_thread::yield();
  }
  const bool failed = __atomic_load_n(&mailbox.failed, __ATOMIC_ACQUIRE) != 0;
  server.stop();
  *error = server.error();
  return failed;
}

TEST(RemoteStrategyTest, TheServerRefusesRecordsItCannotTrust) {
  struct Case {
    const char* what;
    std::vector<std::int64_t> words;
  };
  const std::vector<Case> cases = {
      {"an unknown record", {99}},
      {"a cut record", {Mailbox::kPick, 0}},
      {"a count past the batch", {Mailbox::kPick, 0, 1000000, 0}},
      {"a negative count", {Mailbox::kNextAccesses, -1}},
      {"an access of no thread", {Mailbox::kNextAccesses, 2, 1, 2, 1, 0, 0}},
      {"no enabled thread", {Mailbox::kBegin, 2, Mailbox::kPick, 0, 0}},
      {"enabled threads out of order",
       {Mailbox::kBegin, 2, Mailbox::kPick, 0, 2, 1, 0}},
      {"an access of no kind", {Mailbox::kStepFinished, 0, 1, 77, 0, 0}},
      {"a thread out of range", {Mailbox::kPick, -5, 1, 0}},
  };
  for (const Case& c : cases) {
    auto mailbox = std::make_unique<Mailbox>();
    std::string error;
    EXPECT_TRUE(send_raw(*mailbox, c.words, &error)) << c.what;
    EXPECT_NE(error, "") << c.what;
  }
  auto mailbox = std::make_unique<Mailbox>();
  std::string error;
  EXPECT_FALSE(send_raw(
      *mailbox, {Mailbox::kBegin, 2, Mailbox::kPick, -1, 2, 0, 1}, &error));
  EXPECT_EQ(error, "");
  EXPECT_TRUE(mailbox->answer_value == 0 || mailbox->answer_value == 1);
}

}  // namespace
}  // namespace racelab::sched
