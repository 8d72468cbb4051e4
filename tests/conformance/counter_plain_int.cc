// Conformance: two threads increment a counter kept in a plain int, three
// times each, without a lock.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <thread>

int hits = 0;

int main() {
  std::thread t([] {
    for (int i = 0; i < 3; ++i) ++hits;
  });
  for (int i = 0; i < 3; ++i) ++hits;
  t.join();
  return 0;
}
