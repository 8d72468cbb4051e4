// Conformance: two threads make 6,000,000 relaxed atomic increments each,
// a correct program longer than racelab's length limit of 10,000,000
// decisions (clean; explore notes the schedule it cut, never a finding).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: cut at 10000000 decisions while making progress
#include <atomic>
#include <thread>

constexpr long kIncrements = 6'000'000;
std::atomic<long> hits{0};

void add() {
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
