// Conformance: a thread locks and unlocks a mutex; after the join main
// unlocks it once more (glibc's normal mutex returns 0, TSan reports it).
// EXPECT-PLAIN: unlock-of-an-unlocked-mutex
// EXPECT-EXPLORE: crash
#include <pthread.h>

#include <thread>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

int main() {
  std::thread t([] {
    pthread_mutex_lock(&mu);
    pthread_mutex_unlock(&mu);
  });
  t.join();
  pthread_mutex_unlock(&mu);
  return 0;
}
