// Conformance: three threads meet twice at the barrier ThreadSanitizer's own
// tests use (__tsan_testonly_barrier_wait: a raw futex made through the
// runtime's own system-call path); every shared access is under a mutex
// (clean). Under explore each arrival but the last blocks in the kernel
// holding the baton while the others are about to arrive at the same
// barrier: the watch must end its turn each time, with no hang.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
#include <pthread.h>

extern "C" void __tsan_testonly_barrier_init(unsigned long long* barrier,
                                             unsigned count);
extern "C" void __tsan_testonly_barrier_wait(unsigned long long* barrier);

unsigned long long barrier;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int arrivals = 0;

void* work(void*) {
  for (int round = 0; round < 2; ++round) {
    pthread_mutex_lock(&mu);
    ++arrivals;
    pthread_mutex_unlock(&mu);
    __tsan_testonly_barrier_wait(&barrier);
  }
  return nullptr;
}

int main() {
  __tsan_testonly_barrier_init(&barrier, 3);
  pthread_t threads[3];
  for (pthread_t& t : threads) {
    if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  }
  for (pthread_t& t : threads) pthread_join(t, nullptr);
  return arrivals == 6 ? 0 : 1;
}
