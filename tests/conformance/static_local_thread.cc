// Conformance: two threads call a function whose static local is
// initialised by starting and joining a thread; the second caller waits in
// __cxa_guard_acquire while the first initialises (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
#include <thread>

int compute() {
  int result = 0;
  std::thread helper([&result] { result = 42; });
  helper.join();
  return result;
}

int config() {
  static const int value = compute();
  return value;
}

int seen[2];

int main() {
  std::thread t([] { seen[1] = config(); });
  seen[0] = config();
  t.join();
  return seen[0] == 42 && seen[1] == 42 ? 0 : 1;
}
