// Conformance: tryjoin_sleeping_thread, where main also writes the value
// while the thread sleeps, with no synchronisation (a data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
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
  value = 1;
  int rc;
  while ((rc = pthread_tryjoin_np(t, nullptr)) == EBUSY) sched_yield();
  return rc == 0 ? 0 : 1;
}
