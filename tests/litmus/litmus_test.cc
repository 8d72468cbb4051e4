// The litmus suite under racelab::explore: for every test, order and
// outcome, a dfs search with no preemption bound looks for a schedule that
// reaches the outcome, with the memory-model mode and without it.
//
// With the mode an outcome must be reached exactly when the C++ memory model
// allows it under that order and racelab's fragment can show it
// (litmus_tests.h marks the two outcomes it cannot: load buffering and
// 2+2W); an outcome the model forbids must come out verified, every
// schedule and every store each load may read having been tried. Without
// the mode only the sequentially consistent outcomes (those seq_cst allows)
// may be reached. Each case prints its table row (docs/memory-model.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "checkpoint/variants.h"
#include "litmus_tests.h"
#include "racelab/explore.h"

namespace {

namespace checkpoint = racelab::checkpoint;

struct Case {
  const litmus::Test* test;
  litmus::Order order;
  const litmus::Outcome* outcome;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = std::string(info.param.test->name) + "_" +
                     litmus::order_name(info.param.order) + "_" +
                     info.param.outcome->value;
  for (char& c : name) {
    if (c == ',') c = '_';
    if (c == '+') c = 'p';
  }
  return name;
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const litmus::Test& test : litmus::tests()) {
    for (litmus::Order order : litmus::kOrders) {
      for (const litmus::Outcome& outcome : test.outcomes) {
        out.push_back({&test, order, &outcome});
      }
    }
  }
  return out;
}

// "reached at schedule N" or "not reached (verified over N)".
struct Search {
  bool reached = false;
  bool verified = false;
  int schedules = 0;
  std::string text;
};

// A dfs search of `body` (no preemption bound unless given), with or without
// the memory-model mode.
racelab::ExploreResult explore_dfs(const std::function<void()>& body,
                                   bool memory_model, int preemptions = -1) {
  racelab::ExploreOptions options;
  options.strategy = "dfs";
  options.preemptions = preemptions;
  options.budget = 100000;
  options.memory_model = memory_model;
  options.schedule_dir = testing::TempDir();
  options.name = "litmus";
  return racelab::explore(body, options);
}

Search search(const Case& c, bool memory_model) {
  const std::string target = c.outcome->value;
  const litmus::Test* test = c.test;
  const litmus::Order order = c.order;
  const racelab::ExploreResult result = explore_dfs(
      [test, order, target] {
        if (test->run(order) == target) std::abort();
      },
      memory_model);
  Search s;
  s.reached = result.found();
  s.verified = result.exhausted && !result.found();
  s.schedules = result.schedules;
  s.text =
      s.reached
          ? "reached at schedule " + std::to_string(result.first_failing + 1)
      : s.verified
          ? "not reached, verified over " + std::to_string(result.schedules)
          : "not reached in " + std::to_string(result.schedules);
  if (s.reached) {
    for (const racelab::Finding& f : result.findings) {
      EXPECT_EQ(f.kind, racelab::FindingKind::kCrash) << result.message;
    }
  }
  return s;
}

class Litmus : public testing::TestWithParam<Case> {};

TEST_P(Litmus, ReachesWhatTheModelAllowsAndNothingElse) {
  const Case& c = GetParam();
  const litmus::Orders me = litmus::bit(c.order);
  const bool allowed = (c.outcome->allowed & me) != 0;
  const bool in_fragment = (c.outcome->outside_fragment & me) == 0;
  const bool sequentially_consistent =
      (c.outcome->allowed & litmus::bit(litmus::kSeqCst)) != 0;

  const Search with = search(c, true);
  const Search without = search(c, false);
  std::printf(
      "| %s | %s | %s | %s | %s | %s |\n", c.test->name,
      litmus::order_name(c.order), c.outcome->value,
      allowed ? (in_fragment ? "yes" : "yes, outside the fragment") : "no",
      with.text.c_str(), without.text.c_str());

  EXPECT_EQ(with.reached, allowed && in_fragment) << with.text;
  if (!with.reached) {
    EXPECT_TRUE(with.verified) << with.text;
  }
  EXPECT_EQ(without.reached, sequentially_consistent) << without.text;
  if (!without.reached) {
    EXPECT_TRUE(without.verified) << without.text;
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, Litmus, testing::ValuesIn(all_cases()),
                         case_name);

}  // namespace

// ThreadSanitizer's happens-before under the mode follows the store each
// load actually read: a race behind a stale read is reported, and an acquire
// that did synchronize hides none it should not.
bool has(const racelab::ExploreResult& result, racelab::FindingKind kind) {
  for (const racelab::Finding& f : result.findings) {
    if (f.kind == kind) return true;
  }
  return false;
}

// Message passing of plain data through a release/acquire flag: every
// schedule and every store read is race-free.
void publish_plain_data() {
  int data = 0;
  std::atomic<int> flag{0};
  std::thread writer([&] {
    data = 1;
    flag.store(1, std::memory_order_release);
  });
  std::thread reader([&] {
    if (flag.load(std::memory_order_acquire) == 1 && data != 1) std::abort();
  });
  writer.join();
  reader.join();
}

TEST(LitmusHappensBefore, AnAcquireOfTheStoreReadOrdersThePlainData) {
  const racelab::ExploreResult with = explore_dfs(publish_plain_data, true);
  EXPECT_FALSE(with.found()) << with.message;
  EXPECT_TRUE(with.exhausted) << with.message;
}

// The reader sees `done` (relaxed: no synchronization) and then the flag's
// first store, which a plain write follows. Sequentially consistent, `done`
// set means the flag holds its second store, so the reader never touches
// the data. Under the model the flag's load may read its first store: its
// acquire orders only what came before that store, and the data's write
// after it races with the read. An acquire of the latest store instead
// would hide the race.
void stale_acquire_then_plain_read() {
  int data = 0;
  std::atomic<int> flag{0}, done{0};
  std::thread writer([&] {
    flag.store(1, std::memory_order_release);
    data = 5;
    flag.store(2, std::memory_order_release);
    done.store(1, std::memory_order_relaxed);
  });
  std::thread reader([&] {
    if (done.load(std::memory_order_relaxed) == 1 &&
        flag.load(std::memory_order_acquire) == 1) {
      static_cast<void>(*static_cast<volatile int*>(&data));
    }
  });
  writer.join();
  reader.join();
}

TEST(LitmusHappensBefore, AStaleAcquireReportsTheRaceBehindIt) {
  const racelab::ExploreResult with =
      explore_dfs(stale_acquire_then_plain_read, true);
  EXPECT_TRUE(has(with, racelab::FindingKind::kDataRace)) << with.message;
  const racelab::ExploreResult without =
      explore_dfs(stale_acquire_then_plain_read, false);
  EXPECT_FALSE(without.found()) << without.message;
  EXPECT_TRUE(without.exhausted) << without.message;
}

// A relaxed flag orders nothing: the race is there in both modes.
TEST(LitmusHappensBefore, ARelaxedFlagOrdersNothing) {
  auto body = [] {
    int data = 0;
    std::atomic<int> flag{0};
    std::thread writer([&] {
      data = 1;
      flag.store(1, std::memory_order_relaxed);
    });
    std::thread reader([&] {
      if (flag.load(std::memory_order_relaxed) == 1) {
        static_cast<void>(*static_cast<volatile int*>(&data));
      }
    });
    writer.join();
    reader.join();
  };
  EXPECT_TRUE(has(explore_dfs(body, true), racelab::FindingKind::kDataRace));
  EXPECT_TRUE(has(explore_dfs(body, false), racelab::FindingKind::kDataRace));
}

// The catalog's memory-order pair on its own: a reader copies a session's
// index while a committer appends to it. The unfenced writer tears the copy
// under the memory model; without it no schedule of the search does. The
// fenced writer stays clean either way. Within 2 preemptions (the default
// bound): the store's mutex, map and retry loop make the unbounded tree too
// large for a test. The reader's retry yields while a commit is half done,
// and fairness then takes schedules away, so these searches are clean, not
// verified (the catalog's dfs over its own scenario is: docs/truth-table.md).
void read_while_committing(checkpoint::CheckpointStore& store) {
  store.commit("s", "p0");
  std::thread committer([&] {
    store.commit("s", "p1");
    store.commit("s", "p2");
  });
  std::thread reader([&] {
    const checkpoint::IndexView view = store.retrieve_index("s");
    const auto ids = view.ids();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != i) std::abort();  // not a prefix of the commit order
    }
  });
  committer.join();
  reader.join();
}

TEST(LitmusSeqlock, OnlyTheMemoryModelTearsTheUnfencedIndex) {
  auto unfenced = [] {
    read_while_committing(*checkpoint::make_seqlock_unfenced());
  };
  auto fenced = [] { read_while_committing(*checkpoint::make_seqlock()); };
  const racelab::ExploreResult torn = explore_dfs(unfenced, true, 2);
  EXPECT_TRUE(has(torn, racelab::FindingKind::kCrash)) << torn.message;
  const racelab::ExploreResult interleavings = explore_dfs(unfenced, false, 2);
  EXPECT_FALSE(interleavings.found()) << interleavings.message;
  EXPECT_GT(interleavings.schedules, torn.first_failing + 1);
  for (bool memory_model : {true, false}) {
    const racelab::ExploreResult fixed = explore_dfs(fenced, memory_model, 2);
    EXPECT_FALSE(fixed.found()) << fixed.message;
    EXPECT_FALSE(fixed.schedules == 100000) << "the search did not end";
  }
}
