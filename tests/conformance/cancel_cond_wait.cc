// Conformance: a thread blocked in pthread_cond_wait is cancelled; its
// cleanup handler runs with the mutex held and unlocks it, and main joins it
// (PTHREAD_CANCELED) and takes the mutex again.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>

#include <cstdio>
#include <cstdlib>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
bool waiting = false;
int cleanups = 0;

void unlock(void* arg) {
  ++cleanups;
  pthread_mutex_unlock(static_cast<pthread_mutex_t*>(arg));
}

void* waiter(void*) {
  pthread_mutex_lock(&mu);
  waiting = true;
  pthread_cleanup_push(unlock, &mu);
  for (;;)
    pthread_cond_wait(&cv, &mu);  // no one notifies: only a cancel ends it
  pthread_cleanup_pop(1);
  return nullptr;
}

int main() {
  pthread_t t;
  pthread_create(&t, nullptr, waiter, nullptr);
  for (bool seen = false; !seen;) {
    pthread_mutex_lock(&mu);
    seen = waiting;
    pthread_mutex_unlock(&mu);
  }
  pthread_cancel(t);
  void* result = nullptr;
  pthread_join(t, &result);
  pthread_mutex_lock(&mu);
  const int ran = cleanups;
  pthread_mutex_unlock(&mu);
  if (result != PTHREAD_CANCELED || ran != 1) {
    std::fprintf(stderr, "cancel: result %p, cleanups %d\n", result, ran);
    std::abort();
  }
  return 0;
}
