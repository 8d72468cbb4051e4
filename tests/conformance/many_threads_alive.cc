// Conformance: 256 std::threads alive at once, each incrementing an atomic
// counter and then waiting at a std::barrier that main joins last, so that
// no thread ends before every one has started; main joins them all (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <atomic>
#include <barrier>
#include <thread>
#include <vector>

constexpr int kThreads = 256;
std::atomic<int> counter{0};

int main() {
  std::barrier all_started(kThreads + 1);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&all_started] {
      counter.fetch_add(1);
      all_started.arrive_and_wait();
    });
  }
  all_started.arrive_and_wait();
  for (std::thread& t : threads) t.join();
  return counter.load() == kThreads ? 0 : 1;
}
