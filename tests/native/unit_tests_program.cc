// An unchanged GoogleTest binary, linked with racelab::runtime, for
// `racelab explore --tests` and racelab_discover_tests
// (per_test_explore_test.sh, discover_tests_test.sh): 22 tests, of which
// three racy concurrent ones, five clean concurrent ones, and fourteen that
// never start a thread. Run plainly, every test passes: the races are rare
// on real threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

int g_unlocked = 0;

TEST(Counter, LockedIncrementsAreClean) {
  std::mutex mu;
  int count = 0;
  std::thread a([&] {
    std::lock_guard<std::mutex> lock(mu);
    ++count;
  });
  std::thread b([&] {
    std::lock_guard<std::mutex> lock(mu);
    ++count;
  });
  a.join();
  b.join();
  EXPECT_EQ(count, 2);
}

TEST(Counter, UnlockedIncrementsRace) {
  g_unlocked = 0;
  std::thread a([] { ++g_unlocked; });
  std::thread b([] { ++g_unlocked; });
  a.join();
  b.join();
  EXPECT_GE(g_unlocked, 1);
}

// Check then act on an atomic: both threads may see "not taken" and both take
// the slot. No data race; the assertion fails in one interleaving.
TEST(Slot, CheckThenActTakesTwice) {
  std::atomic<bool> taken{false};
  std::atomic<int> takers{0};
  auto take = [&] {
    if (!taken.load()) {
      taken.store(true);
      takers.fetch_add(1);
    }
  };
  std::thread a(take);
  std::thread b(take);
  a.join();
  b.join();
  ASSERT_EQ(takers.load(), 1);
}

TEST(Slot, ExchangeTakesOnce) {
  std::atomic<bool> taken{false};
  std::atomic<int> takers{0};
  auto take = [&] {
    if (!taken.exchange(true)) takers.fetch_add(1);
  };
  std::thread a(take);
  std::thread b(take);
  a.join();
  b.join();
  ASSERT_EQ(takers.load(), 1);
}

TEST(Plain, Arithmetic) { EXPECT_EQ(2 + 2, 4); }
TEST(Plain, Vector) {
  std::vector<int> v = {3, 1, 2};
  EXPECT_EQ(v.size(), 3u);
}

TEST(Atomic, FetchAddCounts) {
  std::atomic<int> count{0};
  std::thread a([&] { count.fetch_add(1); });
  std::thread b([&] { count.fetch_add(1); });
  a.join();
  b.join();
  EXPECT_EQ(count.load(), 2);
}

TEST(Queue, ProducerConsumerWithConditionVariable) {
  std::mutex mu;
  std::condition_variable ready;
  std::deque<int> items;
  std::thread producer([&] {
    for (int i = 1; i <= 3; ++i) {
      std::lock_guard<std::mutex> lock(mu);
      items.push_back(i);
      ready.notify_one();
    }
  });
  int sum = 0;
  for (int taken = 0; taken < 3; ++taken) {
    std::unique_lock<std::mutex> lock(mu);
    ready.wait(lock, [&] { return !items.empty(); });
    sum += items.front();
    items.pop_front();
  }
  producer.join();
  EXPECT_EQ(sum, 6);
}

// Lazy initialisation checked without synchronisation: both threads may
// read and write the plain pointer at once (a data race).
struct Config {
  int value = 42;
};
Config* g_config = nullptr;
Config g_config_storage;

TEST(LazyInit, UnsynchronizedInitRaces) {
  g_config = nullptr;
  auto get = [] {
    if (g_config == nullptr) g_config = &g_config_storage;
    return g_config->value;
  };
  int a_saw = 0, b_saw = 0;
  std::thread a([&] { a_saw = get(); });
  std::thread b([&] { b_saw = get(); });
  a.join();
  b.join();
  EXPECT_EQ(a_saw + b_saw, 84);
}

TEST(LazyInit, CallOnceIsClean) {
  std::once_flag once;
  std::atomic<int> inits{0};
  auto get = [&] { std::call_once(once, [&] { inits.fetch_add(1); }); };
  std::thread a(get);
  std::thread b(get);
  a.join();
  b.join();
  EXPECT_EQ(inits.load(), 1);
}

TEST(Plain, Strings) { EXPECT_EQ(std::string("race") + "lab", "racelab"); }
TEST(Plain, Map) {
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  EXPECT_EQ(m.at("b"), 2);
}
TEST(Plain, Sort) {
  std::vector<int> v = {3, 1, 2};
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v, (std::vector<int>{1, 2, 3}));
}
TEST(Plain, Optional) {
  std::optional<int> none;
  EXPECT_FALSE(none.has_value());
}
TEST(Plain, Exceptions) {
  EXPECT_THROW(std::vector<int>().at(1), std::out_of_range);
}
TEST(Plain, Accumulate) {
  std::vector<int> v = {1, 2, 3, 4};
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 10);
}

template <class T>
class Typed : public ::testing::Test {};
using TypedTypes = ::testing::Types<int, long, double>;
TYPED_TEST_SUITE(Typed, TypedTypes);
TYPED_TEST(Typed, ZeroIsZero) { EXPECT_EQ(TypeParam{}, TypeParam(0)); }

class Params : public ::testing::TestWithParam<int> {};
TEST_P(Params, Square) { EXPECT_GE(GetParam() * GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Small, Params, ::testing::Values(-1, 0, 2));

}  // namespace
