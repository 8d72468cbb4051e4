// Conformance: a thread locks a mutex and ends without unlocking it; main
// destroys the locked mutex.
// EXPECT-PLAIN: destroy-of-a-locked-mutex
// EXPECT-EXPLORE: crash
#include <pthread.h>

#include <thread>

pthread_mutex_t mu;

int main() {
  pthread_mutex_init(&mu, nullptr);
  std::thread t([] { pthread_mutex_lock(&mu); });
  t.join();
  pthread_mutex_destroy(&mu);
  return 0;
}
