// Conformance: a std::thread lambda captures a local by reference; the
// creating thread reads it after the join (the clean twin of
// race_lambda_capture).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <cstdio>
#include <thread>

int main() {
  int result = 0;
  std::thread t([&] { result = 42; });
  t.join();
  std::printf("%d\n", result);
  return result == 42 ? 0 : 1;
}
