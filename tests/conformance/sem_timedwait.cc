// Conformance: a thread publishes a value and posts a POSIX semaphore; main
// waits with sem_timedwait, again while it times out, then reads the value
// (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <errno.h>
#include <semaphore.h>
#include <time.h>

#include <thread>

sem_t posted;
int value = 0;

int main() {
  sem_init(&posted, 0, 0);
  std::thread t([] {
    value = 42;
    sem_post(&posted);
  });
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 3600;
  while (sem_timedwait(&posted, &deadline) != 0) {
    if (errno != ETIMEDOUT && errno != EINTR) return 2;
  }
  const int seen = value;
  t.join();
  sem_destroy(&posted);
  return seen == 42 ? 0 : 1;
}
