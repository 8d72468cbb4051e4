// Conformance: std::async with std::launch::async computes a value that
// future::get returns, and a std::promise hands another to main (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
#include <future>
#include <thread>

int main() {
  std::future<int> answer = std::async(std::launch::async, [] { return 40; });
  std::promise<int> promise;
  std::future<int> two = promise.get_future();
  std::thread t([&promise] { promise.set_value(2); });
  const int sum = answer.get() + two.get();
  t.join();
  return sum == 42 ? 0 : 1;
}
