// Conformance: the thread of thread_leak, detached (the clean twin).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
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
  pthread_detach(t);
  while (worker_tid.load() == 0) sched_yield();
  const std::string task = "/proc/self/task/" + std::to_string(worker_tid);
  struct stat st;
  for (int i = 0; i < 60000 && stat(task.c_str(), &st) == 0; ++i) usleep(1000);
  return 0;
}
