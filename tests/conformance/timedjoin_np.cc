// Conformance: main joins with pthread_timedjoin_np and a deadline an hour
// away, then reads what the thread wrote (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <time.h>

int value = 0;

void* work(void*) {
  value = 42;
  return nullptr;
}

int main() {
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) != 0) return 2;
  timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 3600;
  const int rc = pthread_timedjoin_np(t, nullptr, &deadline);
  return rc == 0 && value == 42 ? 0 : 1;
}
