// Conformance: two threads, one after the other, take A then B (the clean
// twin of lock_order_inversion).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <mutex>
#include <thread>

std::mutex a;
std::mutex b;

int main() {
  std::thread first([] {
    std::lock_guard la(a);
    std::lock_guard lb(b);
  });
  first.join();
  std::thread second([] {
    std::lock_guard la(a);
    std::lock_guard lb(b);
  });
  second.join();
  return 0;
}
