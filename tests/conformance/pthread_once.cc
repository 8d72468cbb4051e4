// Conformance: two threads run pthread_once on one control; both read what
// the initialiser wrote (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>

#include <thread>

pthread_once_t once = PTHREAD_ONCE_INIT;
int config = 0;
int seen[2];

void init() { config = 42; }

void use(int i) {
  pthread_once(&once, init);
  seen[i] = config;
}

int main() {
  std::thread t(use, 1);
  use(0);
  t.join();
  return seen[0] == 42 && seen[1] == 42 ? 0 : 1;
}
