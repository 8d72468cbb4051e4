// Conformance: the counter of counter_plain_int as a std::atomic<int>
// (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <atomic>
#include <thread>

std::atomic<int> hits{0};

int main() {
  std::thread t([] {
    for (int i = 0; i < 3; ++i) hits.fetch_add(1);
  });
  for (int i = 0; i < 3; ++i) hits.fetch_add(1, std::memory_order_relaxed);
  t.join();
  return hits.load() == 6 ? 0 : 1;
}
