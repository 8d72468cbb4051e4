// Conformance: a thread waits 20 ms by reading the clock in a loop, with no
// other call (a busy wait), while another passes it readings through an
// atomic: the wait ends, and a reading made after another thread's, in
// happens-before order, is never earlier (clocks never go backwards).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <atomic>
#include <chrono>
#include <thread>

#include "clock_check.h"

std::atomic<long long> seen{0};

int main() {
  std::thread spinner([] {
    const auto end =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
    while (std::chrono::steady_clock::now() < end) {
    }
    seen.store(now_ns(CLOCK_MONOTONIC));
  });
  for (int i = 0; i < 3; ++i) {
    const long long theirs = seen.load();
    const long long mine = now_ns(CLOCK_MONOTONIC);
    expect(mine >= theirs, "a clock went backwards between threads");
  }
  spinner.join();
  expect(now_ns(CLOCK_MONOTONIC) >= seen.load(),
         "a clock went backwards after a join");
}
