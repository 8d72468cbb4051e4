// Conformance: long_run_counter, where the thread writes a plain int and
// raises a relaxed flag, and main, once it sees the flag, writes the int
// too and answers with a second flag the thread waits for before it counts:
// relaxed atomics order nothing, so the two writes race, close together, in
// the first decisions of a run longer than racelab's length limit.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <atomic>
#include <thread>

constexpr long kIncrements = 6'000'000;
std::atomic<long> hits{0};
std::atomic<bool> ready{false};
std::atomic<bool> answered{false};
int started = 0;

void add() {
  for (long i = 0; i < kIncrements; ++i) {
    hits.fetch_add(1, std::memory_order_relaxed);
  }
}

int main() {
  std::thread t([] {
    started = 1;
    ready.store(true, std::memory_order_relaxed);
    while (!answered.load(std::memory_order_relaxed)) {
    }
    add();
  });
  while (!ready.load(std::memory_order_relaxed)) {
  }
  started = 2;
  answered.store(true, std::memory_order_relaxed);
  add();
  t.join();
  return hits.load() == 2 * kIncrements ? 0 : 1;
}
