// Conformance: a joinable pthread ends and is never joined nor detached;
// main waits until the thread has left the process, then exits.
// EXPECT-PLAIN: thread-leak
// EXPECT-EXPLORE: crash
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <string>

std::atomic<pid_t> worker_tid{0};

void* work(void*) {
  worker_tid.store(gettid());
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  while (worker_tid.load() == 0) sched_yield();
  // The thread is gone once its /proc entry is (bounded: 60 s).
  const std::string task = "/proc/self/task/" + std::to_string(worker_tid);
  struct stat st;
  for (int i = 0; i < 60000 && stat(task.c_str(), &st) == 0; ++i) usleep(1000);
  return 0;
}
