// Message passing through relaxed atomics, with the reader failing at once:
// it aborts in the instruction after the load that read the stale payload,
// with no scheduling point between the two. The trace of the failing
// schedule must still show that stale read in the reader's column
// (litmus_program_test.sh).
#include <atomic>
#include <cstdlib>
#include <thread>

std::atomic<int> payload{0};
std::atomic<int> ready{0};

int main() {
  std::thread writer([] {
    payload.store(1, std::memory_order_relaxed);
    ready.store(1, std::memory_order_relaxed);
  });
  std::thread reader([] {
    if (ready.load(std::memory_order_relaxed) == 1 &&
        payload.load(std::memory_order_relaxed) != 1) {
      std::abort();
    }
  });
  writer.join();
  reader.join();
  return 0;
}
