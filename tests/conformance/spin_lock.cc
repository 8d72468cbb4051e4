// Conformance: two threads increment a counter under a pthread_spinlock_t
// (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>

#include <thread>

pthread_spinlock_t spin;
int counter = 0;

void add() {
  for (int i = 0; i < 3; ++i) {
    pthread_spin_lock(&spin);
    ++counter;
    pthread_spin_unlock(&spin);
  }
}

int main() {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  std::thread t(add);
  add();
  t.join();
  pthread_spin_destroy(&spin);
  return counter == 6 ? 0 : 1;
}
