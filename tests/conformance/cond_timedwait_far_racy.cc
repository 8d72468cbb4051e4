// Conformance: as cond_timedwait_far (a wait with a deadline an hour away
// that must not time out), plus a race: the thread writes a second global
// after its unlock, which main reads after the wait.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
bool ready = false;
int late = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
  ready = true;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  late = 1;
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
  pthread_mutex_unlock(&mu);
  const int seen = late;
  pthread_join(t, nullptr);
  return rc == 0 && seen >= 0 ? 0 : 1;
}
