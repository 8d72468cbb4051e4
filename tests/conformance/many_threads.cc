// Conformance: 200 threads created one after another, each joined before the
// next starts, each incrementing a shared counter (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <thread>

int counter = 0;

int main() {
  for (int i = 0; i < 200; ++i) {
    std::thread t([] { ++counter; });
    t.join();
  }
  return counter == 200 ? 0 : 1;
}
