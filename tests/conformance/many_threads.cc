// Conformance: 200 threads created one after another, each joined before the
// next starts, each incrementing a shared counter (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// XFAIL-EXPLORE: 64 logical threads per run, joined ones count (EAGAIN)
#include <thread>

int counter = 0;

int main() {
  for (int i = 0; i < 200; ++i) {
    std::thread t([] { ++counter; });
    t.join();
  }
  return counter == 200 ? 0 : 1;
}
