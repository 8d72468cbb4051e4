// Conformance: long_run_counter, where both threads first write a plain
// int with no synchronisation (a data race in the first decisions of a
// run longer than racelab's length limit).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <atomic>
#include <thread>

constexpr long kIncrements = 6'000'000;
std::atomic<long> hits{0};
int started = 0;

void add() {
  started = 1;
  for (long i = 0; i < kIncrements; ++i) {
    hits.fetch_add(1, std::memory_order_relaxed);
  }
}

int main() {
  std::thread t(add);
  add();
  t.join();
  return hits.load() == 2 * kIncrements ? 0 : 1;
}
