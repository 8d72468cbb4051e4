// Conformance: three threads meet twice at the barrier ThreadSanitizer's own
// tests use (__tsan_testonly_barrier_wait: a raw futex made through the
// runtime's own system-call path, invisible to the race detector), then
// each writes a global with no lock: TSan reports the race. Under explore
// the second round finds threads freed in the first one about to arrive
// again: the watch must end the blocked holder's turn, the threads must
// reach their writes, and the race must be reported (not a hang).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <pthread.h>

extern "C" void __tsan_testonly_barrier_init(unsigned long long* barrier,
                                             unsigned count);
extern "C" void __tsan_testonly_barrier_wait(unsigned long long* barrier);

unsigned long long barrier;
int global;

void* work(void*) {
  for (int round = 0; round < 2; ++round) {
    __tsan_testonly_barrier_wait(&barrier);
  }
  global = global + 1;
  return nullptr;
}

int main() {
  __tsan_testonly_barrier_init(&barrier, 3);
  pthread_t threads[3];
  for (pthread_t& t : threads) {
    if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  }
  for (pthread_t& t : threads) pthread_join(t, nullptr);
  return 0;
}
