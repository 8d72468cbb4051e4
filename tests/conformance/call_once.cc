// Conformance: two threads run std::call_once on one std::once_flag; both
// read what the callable wrote (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <mutex>
#include <thread>

std::once_flag once;
int config = 0;
int seen[2];

void use(int i) {
  std::call_once(once, [] { config = 42; });
  seen[i] = config;
}

int main() {
  std::thread t(use, 1);
  use(0);
  t.join();
  return seen[0] == 42 && seen[1] == 42 ? 0 : 1;
}
