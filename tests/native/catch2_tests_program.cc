// An unchanged Catch2 (v2) binary, linked with racelab::runtime, for
// `racelab explore --tests` (per_test_explore_test.sh): a racy concurrent
// test whose name holds a list separator and a tag's brackets (escaped in
// its test spec), a clean concurrent one, and one without a thread.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

namespace {

int g_unlocked = 0;

TEST_CASE("counter, unlocked [two threads] increments race", "[counter]") {
  g_unlocked = 0;
  std::thread a([] { ++g_unlocked; });
  std::thread b([] { ++g_unlocked; });
  a.join();
  b.join();
  CHECK(g_unlocked >= 1);
}

TEST_CASE("counter, locked increments are clean", "[counter]") {
  std::mutex mu;
  int count = 0;
  auto add = [&] {
    std::lock_guard<std::mutex> lock(mu);
    ++count;
  };
  std::thread a(add);
  std::thread b(add);
  a.join();
  b.join();
  CHECK(count == 2);
}

TEST_CASE("arithmetic", "[plain]") { CHECK(2 + 2 == 4); }

}  // namespace
