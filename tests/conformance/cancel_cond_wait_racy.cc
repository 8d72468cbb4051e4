// Conformance: the racy twin of cancel_cond_wait: the cleanup handler writes
// a counter that main reads without the mutex and before the join.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <pthread.h>

#include <atomic>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
std::atomic<bool> waiting{false};
int cleanups = 0;

void unlock(void* arg) {
  ++cleanups;
  pthread_mutex_unlock(static_cast<pthread_mutex_t*>(arg));
}

void* waiter(void*) {
  pthread_mutex_lock(&mu);
  waiting = true;
  pthread_cleanup_push(unlock, &mu);
  for (;;) pthread_cond_wait(&cv, &mu);
  pthread_cleanup_pop(1);
  return nullptr;
}

int main() {
  pthread_t t;
  pthread_create(&t, nullptr, waiter, nullptr);
  while (!waiting) {
  }
  pthread_cancel(t);
  const int ran = cleanups;  // racy: nothing orders the cleanup's write
  pthread_join(t, nullptr);
  return ran;
}
