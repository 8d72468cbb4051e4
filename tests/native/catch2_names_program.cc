// An unchanged Catch2 (v2) binary whose test names Catch2 would read as
// something else (catch2_names_test.sh): a name with a wildcard that also
// selects a racy test, names that look like options or an exclusion, and
// names that hold CMake's list separator and unmatched brackets. Two tests
// race; the others are clean.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

namespace {

int g_racy = 0;

void two_threads_increment(bool locked) {
  std::mutex mu;
  int count = 0;
  auto add = [&] {
    if (locked) {
      std::lock_guard<std::mutex> lock(mu);
      ++count;
    } else {
      ++g_racy;
    }
  };
  std::thread a(add);
  std::thread b(add);
  a.join();
  b.join();
  CHECK((!locked || count == 2));
}

TEST_CASE("clean*", "[names]") { two_threads_increment(true); }

TEST_CASE("clean but racy", "[names]") { two_threads_increment(false); }

TEST_CASE("--out=clobbered.txt", "[names]") { CHECK(1 + 1 == 2); }

TEST_CASE("~racy", "[names]") { CHECK(2 + 2 == 4); }

TEST_CASE("semi;colon [bracket", "[names]") { two_threads_increment(false); }

TEST_CASE("other] side;", "[names]") { two_threads_increment(true); }

}  // namespace
