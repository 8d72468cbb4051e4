// Conformance: a thread takes a robust mutex, says so through an atomic,
// writes a value and ends holding the mutex; main, never joining it, waits
// in pthread_mutex_lock until the owner is gone (EOWNERDEAD) and reads the
// value: an owner's death is no synchronisation, so TSan reports the race.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <errno.h>
#include <pthread.h>

#include <atomic>

pthread_mutex_t mu;
std::atomic<bool> locked{false};
int value = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
  locked.store(true);
  value = 42;
  return nullptr;  // ends holding the mutex
}

int main() {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&mu, &attr);
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  while (!locked.load()) sched_yield();
  if (pthread_mutex_lock(&mu) != EOWNERDEAD) return 1;
  const int seen = value;
  pthread_mutex_consistent(&mu);
  pthread_mutex_unlock(&mu);
  pthread_join(t, nullptr);
  return seen == 42 ? 0 : 1;
}
