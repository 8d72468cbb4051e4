// Conformance: a thread is still in sleep(10) when main returns: the
// process exit ends it. TSan reports a thread leak only for a joinable
// thread that finished unjoined, so this is clean (thread_leak.cc is the
// program whose thread finished).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <unistd.h>

#include <atomic>

std::atomic<bool> started{false};

void* work(void*) {
  started.store(true);
  sleep(10);
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  while (!started.load()) sched_yield();
  return 0;
}
