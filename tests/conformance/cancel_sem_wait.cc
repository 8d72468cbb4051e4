// Conformance: a thread blocked in sem_wait is cancelled and joined
// (PTHREAD_CANCELED). (A thread cancelled while it waits in pthread_join is
// left out: plain TSan ends it with "finished with ignores enabled", since
// its join interceptor ignores the blocked call and the cancellation never
// comes back to end that.)
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <semaphore.h>

#include <atomic>
#include <cstdlib>

sem_t never_posted;
std::atomic<bool> started{false};

void* waits_on_semaphore(void*) {
  started = true;
  sem_wait(&never_posted);
  return nullptr;
}

int main() {
  sem_init(&never_posted, 0, 0);
  pthread_t waiter;
  pthread_create(&waiter, nullptr, waits_on_semaphore, nullptr);
  while (!started.load()) sched_yield();
  pthread_cancel(waiter);
  void* result = nullptr;
  pthread_join(waiter, &result);
  if (result != PTHREAD_CANCELED) std::abort();
  sem_destroy(&never_posted);
  return 0;
}
