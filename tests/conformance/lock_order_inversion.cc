// Conformance: one thread takes A then B, a later thread (after the first
// is joined) takes B then A. No deadlock can happen, but the lock order is
// inverted: TSan's lock-order detector reports it.
// EXPECT-PLAIN: lock-order-inversion
// EXPECT-EXPLORE: deadlock
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
    std::lock_guard lb(b);
    std::lock_guard la(a);
  });
  second.join();
  return 0;
}
