// Conformance: two threads increment a global int under a std::mutex (the
// clean twin of race_global).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <mutex>
#include <thread>

std::mutex mu;
int counter = 0;

int main() {
  std::thread t([] {
    std::lock_guard lock(mu);
    ++counter;
  });
  {
    std::lock_guard lock(mu);
    ++counter;
  }
  t.join();
  return counter == 2 ? 0 : 1;
}
