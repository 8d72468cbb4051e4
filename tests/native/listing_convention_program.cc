// A test binary of no framework that follows racelab's listing convention,
// linked with racelab::runtime, for `racelab explore --tests`
// (per_test_explore_test.sh): --racelab-list-tests prints one test name per
// line; --racelab-test=<name> runs that test only.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string_view>
#include <thread>

namespace {

int g_unlocked = 0;

int unlocked_increments() {
  std::thread a([] { ++g_unlocked; });
  std::thread b([] { ++g_unlocked; });
  a.join();
  b.join();
  return g_unlocked >= 1 ? 0 : 1;
}

int locked_increments() {
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
  return count == 2 ? 0 : 1;
}

int arithmetic() { return 2 + 2 == 4 ? 0 : 1; }

struct Test {
  const char* name;
  int (*run)();
};
constexpr Test kTests[] = {
    {"unlocked increments", unlocked_increments},
    {"locked increments", locked_increments},
    {"arithmetic", arithmetic},
};

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kOne = "--racelab-test=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--racelab-list-tests") {
      for (const Test& test : kTests) std::printf("%s\n", test.name);
      return 0;
    }
    if (arg.starts_with(kOne)) {
      const std::string_view name = arg.substr(kOne.size());
      for (const Test& test : kTests) {
        if (name == test.name) return test.run();
      }
      std::fprintf(stderr, "no test named '%s'\n", argv[i] + kOne.size());
      return 2;
    }
  }
  int failed = 0;
  for (const Test& test : kTests) failed += test.run() != 0;
  return failed > 0 ? 1 : 0;
}
