// Conformance: as posix_semaphore, but the thread posts before it writes the
// value: nothing orders the write before main's read (data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <semaphore.h>

#include <thread>

sem_t posted;
int value = 0;

int main() {
  sem_init(&posted, 0, 0);
  std::thread t([] {
    sem_post(&posted);
    value = 42;
  });
  while (sem_wait(&posted) != 0) {
  }
  const int seen = value;
  t.join();
  sem_destroy(&posted);
  return seen == 42 || seen == 0 ? 0 : 1;
}
