// Conformance: thread_rounds with the counter a plain int: the 4 threads of
// a round increment it without a lock.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <thread>

constexpr int kRounds = 400;
constexpr int kThreadsPerRound = 4;
int counter = 0;

int main() {
  for (int round = 0; round < kRounds; ++round) {
    std::thread threads[kThreadsPerRound];
    for (std::thread& t : threads) t = std::thread([] { ++counter; });
    for (std::thread& t : threads) t.join();
  }
  return 0;
}
