// Conformance: a thread publishes a value with an atomic store and
// notify_one; main blocks in std::atomic::wait until then (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <atomic>
#include <thread>

std::atomic<int> ready{0};
int value = 0;

int main() {
  std::thread t([] {
    value = 42;
    ready.store(1);
    ready.notify_one();
  });
  ready.wait(0);
  const int seen = value;
  t.join();
  return seen == 42 ? 0 : 1;
}
