// Conformance: main polls pthread_tryjoin_np until the thread has ended,
// then reads what it wrote (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <sched.h>

#include <cerrno>

int value = 0;

void* work(void*) {
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
