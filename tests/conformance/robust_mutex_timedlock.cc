// Conformance: as robust_mutex_waiter, but main waits for the dead owner in
// pthread_mutex_timedlock (deadline an hour away): EOWNERDEAD, consistent,
// unlock. TSan 14's timedlock interceptor records no lock on EOWNERDEAD, so
// plain TSan reports the unlock; explore must report it too.
// EXPECT-PLAIN: unlock-of-an-unlocked-mutex
// EXPECT-EXPLORE: crash
#include <errno.h>
#include <pthread.h>
#include <time.h>

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
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 3600;
  if (pthread_mutex_timedlock(&mu, &deadline) != EOWNERDEAD) return 1;
  if (pthread_mutex_consistent(&mu) != 0) return 1;
  const int seen = value;
  pthread_mutex_unlock(&mu);
  pthread_join(t, nullptr);
  return seen == 42 ? 0 : 1;
}
