// Conformance: main joins, with pthread_timedjoin_np and a deadline 50 ms
// away, a thread that never ends (it waits on a semaphore nobody posts):
// the join times out (ETIMEDOUT), main returns while the thread still waits.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

sem_t never;

void* work(void*) {
  sem_wait(&never);
  return nullptr;
}

int main() {
  sem_init(&never, 0, 0);
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 50 * 1000 * 1000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_nsec -= 1000000000;
    ++deadline.tv_sec;
  }
  return pthread_timedjoin_np(t, nullptr, &deadline) == ETIMEDOUT ? 0 : 1;
}
