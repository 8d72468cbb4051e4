// Conformance: as pthread_barrier, but main reads the other threads' slots
// before its own pthread_barrier_wait: nothing orders the writes before the
// read (data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <pthread.h>

#include <thread>

pthread_barrier_t barrier;
int slots[3];

void work(int i) {
  slots[i] = i + 1;
  pthread_barrier_wait(&barrier);
}

int main() {
  pthread_barrier_init(&barrier, nullptr, 3);
  std::thread a(work, 1);
  std::thread b(work, 2);
  slots[0] = 1;
  const int sum = slots[0] + slots[1] + slots[2];
  pthread_barrier_wait(&barrier);
  a.join();
  b.join();
  pthread_barrier_destroy(&barrier);
  return sum >= 1 ? 0 : 1;
}
