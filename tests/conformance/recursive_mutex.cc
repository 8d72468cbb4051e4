// Conformance: two threads take a std::recursive_mutex twice, nested, and
// increment a counter inside (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <mutex>
#include <thread>

std::recursive_mutex mu;
int counter = 0;

void add() {
  std::lock_guard outer(mu);
  {
    std::lock_guard inner(mu);
    ++counter;
  }
  ++counter;
}

int main() {
  std::thread t(add);
  add();
  t.join();
  return counter == 4 ? 0 : 1;
}
