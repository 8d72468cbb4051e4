// Conformance: main polls pthread_tryjoin_np, yielding between looks, while
// the thread sleeps 50 ms in 1 ms usleep steps and then writes a value that
// main reads after the join (clean): the poll must let the sleeper finish.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>

int value = 0;

void* work(void*) {
  for (int i = 0; i < 50; ++i) usleep(1000);
  value = 42;
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  int rc;
  while ((rc = pthread_tryjoin_np(t, nullptr)) == EBUSY) sched_yield();
  return rc == 0 && value == 42 ? 0 : 1;
}
