// Conformance: spin_lock with one thread that forgets the spin lock.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <pthread.h>

#include <thread>

pthread_spinlock_t spin;
int counter = 0;

int main() {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  std::thread t([] {
    pthread_spin_lock(&spin);
    ++counter;
    pthread_spin_unlock(&spin);
  });
  ++counter;
  t.join();
  pthread_spin_destroy(&spin);
  return 0;
}
