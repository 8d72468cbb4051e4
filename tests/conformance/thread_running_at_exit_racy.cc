// Conformance: a thread sleeps for 10 s in steps of 5 ms (usleep) and is
// still sleeping when main returns, as in thread_running_at_exit, plus a
// race: the thread writes a global that main reads with no synchronisation
// (the flag is relaxed). TSan reports the race and no thread leak.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <pthread.h>
#include <unistd.h>

#include <atomic>

std::atomic<bool> started{false};
int value = 0;

void* work(void*) {
  value = 42;
  started.store(true, std::memory_order_relaxed);
  for (int i = 0; i < 2000; ++i) usleep(5000);
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  while (!started.load(std::memory_order_relaxed)) sched_yield();
  return value == 42 ? 0 : 1;
}
