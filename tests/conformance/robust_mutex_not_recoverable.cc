// Conformance: a thread ends holding a robust mutex; main joins it, takes
// the mutex with pthread_mutex_trylock (EOWNERDEAD) and unlocks it without
// pthread_mutex_consistent: the mutex is not recoverable any more, and
// lock and trylock return ENOTRECOVERABLE (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <pthread.h>

pthread_mutex_t mu;

void* work(void*) {
  pthread_mutex_lock(&mu);
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
  if (pthread_mutex_trylock(&mu) != EOWNERDEAD) return 1;
  pthread_mutex_unlock(&mu);
  if (pthread_mutex_lock(&mu) != ENOTRECOVERABLE) return 1;
  if (pthread_mutex_trylock(&mu) != ENOTRECOVERABLE) return 1;
  return 0;
}
