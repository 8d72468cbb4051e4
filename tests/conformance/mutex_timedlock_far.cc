// Conformance: a thread holds a mutex while it writes a value; main takes
// the mutex with pthread_mutex_timedlock and a deadline an hour away and
// takes ETIMEDOUT for an error (exit 1) (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <time.h>

#include <atomic>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
std::atomic<bool> locked{false};
int value = 0;

void* work(void*) {
  pthread_mutex_lock(&mu);
  locked.store(true);
  value = 42;
  pthread_mutex_unlock(&mu);
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  while (!locked.load()) sched_yield();
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 3600;
  const int rc = pthread_mutex_timedlock(&mu, &deadline);
  const int seen = value;
  if (rc == 0) pthread_mutex_unlock(&mu);
  pthread_join(t, nullptr);
  return rc == 0 && seen == 42 ? 0 : 1;
}
