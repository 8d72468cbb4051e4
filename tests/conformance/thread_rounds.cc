// Conformance: 400 rounds of 4 threads, each round started and joined before
// the next, 1,600 threads over the run, each incrementing an atomic counter
// (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <atomic>
#include <thread>

constexpr int kRounds = 400;
constexpr int kThreadsPerRound = 4;
std::atomic<int> counter{0};

int main() {
  for (int round = 0; round < kRounds; ++round) {
    std::thread threads[kThreadsPerRound];
    for (std::thread& t : threads)
      t = std::thread([] { counter.fetch_add(1); });
    for (std::thread& t : threads) t.join();
  }
  return counter.load() == kRounds * kThreadsPerRound ? 0 : 1;
}
