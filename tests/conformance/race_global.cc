// Conformance: two threads increment a global int without a lock.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <thread>

int counter = 0;

int main() {
  std::thread t([] { ++counter; });
  ++counter;
  t.join();
  return 0;
}
