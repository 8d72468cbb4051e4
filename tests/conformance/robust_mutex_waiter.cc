// Conformance: a thread takes a robust mutex, writes a value, says so
// through an atomic and ends holding the mutex; main waits for it in
// pthread_mutex_lock until the owner is gone: EOWNERDEAD, then
// pthread_mutex_consistent, and the value is read (ordered by the atomic)
// (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <pthread.h>

#include <atomic>

pthread_mutex_t mu;
std::atomic<bool> locked{false};
int value = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
  value = 42;
  locked.store(true);
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
  if (pthread_mutex_consistent(&mu) != 0) return 1;
  const int seen = value;
  pthread_mutex_unlock(&mu);
  pthread_join(t, nullptr);
  return seen == 42 ? 0 : 1;
}
