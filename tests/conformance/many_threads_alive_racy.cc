// Conformance: many_threads_alive with the counter a plain int: 256 threads
// alive at once increment it without a lock before the barrier.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <barrier>
#include <thread>
#include <vector>

constexpr int kThreads = 256;
int counter = 0;

int main() {
  std::barrier all_started(kThreads + 1);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&all_started] {
      ++counter;
      all_started.arrive_and_wait();
    });
  }
  all_started.arrive_and_wait();
  for (std::thread& t : threads) t.join();
  return 0;
}
