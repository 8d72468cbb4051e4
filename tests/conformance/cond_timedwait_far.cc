// Conformance: main waits for a flag with pthread_cond_timedwait and a
// deadline an hour away, and takes ETIMEDOUT for an error (exit 1); a
// thread sets the flag under the mutex and signals (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
bool ready = false;
int value = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
  value = 42;
  ready = true;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 3600;
  int rc = 0;
  pthread_mutex_lock(&mu);
  while (!ready && rc == 0) rc = pthread_cond_timedwait(&cv, &mu, &deadline);
  const int seen = value;
  pthread_mutex_unlock(&mu);
  pthread_join(t, nullptr);
  return rc == 0 && seen == 42 ? 0 : 1;
}
