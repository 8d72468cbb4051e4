// Conformance: tryjoin_sleeping_thread, where main polls
// pthread_tryjoin_np without a yield: the poll still gives way to the
// sleeping thread once per round of the fairness bound (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
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
  while ((rc = pthread_tryjoin_np(t, nullptr)) == EBUSY) {
  }
  return rc == 0 && value == 42 ? 0 : 1;
}
