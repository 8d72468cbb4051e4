// Conformance: a std::thread lambda captures a local by reference and writes
// it while the creating thread reads it.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <cstdio>
#include <thread>

int main() {
  int result = 0;
  std::thread t([&] { result = 42; });
  std::printf("%d\n", result);
  t.join();
  return 0;
}
