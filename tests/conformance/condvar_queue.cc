// Conformance: producer and consumer of a queue under a std::mutex and a
// std::condition_variable (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <condition_variable>
#include <mutex>
#include <queue>
#include <thread>

std::mutex mu;
std::condition_variable ready;
std::queue<int> items;

int main() {
  std::thread producer([] {
    for (int i = 1; i <= 3; ++i) {
      std::lock_guard lock(mu);
      items.push(i);
      ready.notify_one();
    }
  });
  int sum = 0;
  for (int n = 0; n < 3; ++n) {
    std::unique_lock lock(mu);
    ready.wait(lock, [] { return !items.empty(); });
    sum += items.front();
    items.pop();
  }
  producer.join();
  return sum == 6 ? 0 : 1;
}
