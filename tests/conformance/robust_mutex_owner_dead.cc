// Conformance: a thread takes a robust mutex, writes a value and ends
// holding it; main joins it, then locks: EOWNERDEAD, pthread_mutex_consistent
// repairs the mutex, main reads the value (ordered by the join), unlocks,
// and a second lock returns 0 (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <pthread.h>

pthread_mutex_t mu;
int value = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
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
  pthread_join(t, nullptr);
  if (pthread_mutex_lock(&mu) != EOWNERDEAD) return 1;
  if (pthread_mutex_consistent(&mu) != 0) return 1;
  const int seen = value;
  pthread_mutex_unlock(&mu);
  if (pthread_mutex_lock(&mu) != 0) return 1;
  pthread_mutex_unlock(&mu);
  return seen == 42 ? 0 : 1;
}
