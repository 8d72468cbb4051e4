// An unchanged GoogleTest binary, linked with racelab::runtime, for
// `racelab explore --tests` (per_test_explore_test.sh): two racy concurrent
// tests, two clean concurrent ones, and tests that never start a thread.
// Run plainly, every test passes: the races are rare on real threads.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
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

class Params : public ::testing::TestWithParam<int> {};
TEST_P(Params, Square) { EXPECT_GE(GetParam() * GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(Small, Params, ::testing::Values(-1, 0, 2));

}  // namespace
