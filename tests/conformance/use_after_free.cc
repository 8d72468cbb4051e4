// Conformance: main frees a heap int, then tells a thread through a relaxed
// atomic (no happens-before) to write it.
// EXPECT-PLAIN: heap-use-after-free
// EXPECT-EXPLORE: use_after_free
#include <atomic>
#include <thread>

std::atomic<bool> freed{false};

int main() {
  int* p = new int(0);
  std::thread t([p] {
    while (!freed.load(std::memory_order_relaxed)) std::this_thread::yield();
    *p = 1;
  });
  delete p;
  freed.store(true, std::memory_order_relaxed);
  t.join();
  return 0;
}
