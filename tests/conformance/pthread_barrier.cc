// Conformance: three threads write their own slot, meet at a
// pthread_barrier_wait, then read every slot (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>

#include <thread>

pthread_barrier_t barrier;
int slots[3];
int sums[3];

void work(int i) {
  slots[i] = i + 1;
  pthread_barrier_wait(&barrier);
  sums[i] = slots[0] + slots[1] + slots[2];
}

int main() {
  pthread_barrier_init(&barrier, nullptr, 3);
  std::thread a(work, 1);
  std::thread b(work, 2);
  work(0);
  a.join();
  b.join();
  pthread_barrier_destroy(&barrier);
  return sums[0] == 6 && sums[1] == 6 && sums[2] == 6 ? 0 : 1;
}
