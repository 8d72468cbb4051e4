// Conformance: a global object's constructor starts a thread before main;
// main joins it and reads what it wrote (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <thread>

int value = 0;

struct Starter {
  Starter() : worker([] { value = 42; }) {}
  std::thread worker;
};

Starter starter;

int main() {
  starter.worker.join();
  return value == 42 ? 0 : 1;
}
