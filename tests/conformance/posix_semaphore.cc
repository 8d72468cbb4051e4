// Conformance: a thread publishes a value and posts a POSIX semaphore; main
// waits on it and reads the value (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <semaphore.h>

#include <thread>

sem_t posted;
int value = 0;

int main() {
  sem_init(&posted, 0, 0);
  std::thread t([] {
    value = 42;
    sem_post(&posted);
  });
  while (sem_wait(&posted) != 0) {
  }
  const int seen = value;
  t.join();
  sem_destroy(&posted);
  return seen == 42 ? 0 : 1;
}
