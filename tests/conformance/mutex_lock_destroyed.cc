// Conformance: a mutex is destroyed after a thread used it, then locked
// again (glibc returns EINVAL, TSan reports the invalid mutex).
// EXPECT-PLAIN: use-of-an-invalid-mutex
// EXPECT-EXPLORE: crash
#include <pthread.h>

#include <thread>

pthread_mutex_t mu;

int main() {
  pthread_mutex_init(&mu, nullptr);
  std::thread t([] {
    pthread_mutex_lock(&mu);
    pthread_mutex_unlock(&mu);
  });
  t.join();
  pthread_mutex_destroy(&mu);
  if (pthread_mutex_lock(&mu) == 0) pthread_mutex_unlock(&mu);
  return 0;
}
