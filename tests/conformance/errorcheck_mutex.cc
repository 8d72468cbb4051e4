// Conformance: two threads share a counter under an error-checking pthread
// mutex; each relocks it while holding it and gets EDEADLK (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>

#include <cerrno>
#include <thread>

pthread_mutex_t mu;
int counter = 0;
int relock[2];

void add(int i) {
  pthread_mutex_lock(&mu);
  relock[i] = pthread_mutex_lock(&mu);
  ++counter;
  pthread_mutex_unlock(&mu);
}

int main() {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&mu, &attr);
  pthread_mutexattr_destroy(&attr);
  std::thread t(add, 1);
  add(0);
  t.join();
  pthread_mutex_destroy(&mu);
  return counter == 2 && relock[0] == EDEADLK && relock[1] == EDEADLK ? 0 : 1;
}
