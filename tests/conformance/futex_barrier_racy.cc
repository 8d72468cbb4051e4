// Conformance: as futex_barrier, but the thread writes its slot after it
// arrives: nothing orders that write before main's read (data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <thread>

std::atomic<unsigned> arrived{0};
int slots[2];

void arrive_and_wait() {
  if (arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == 2) {
    syscall(SYS_futex, &arrived, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr,
            0);
    return;
  }
  unsigned now;
  while ((now = arrived.load(std::memory_order_acquire)) < 2) {
    syscall(SYS_futex, &arrived, FUTEX_WAIT_PRIVATE, now, nullptr, nullptr, 0);
  }
}

int main() {
  std::thread t([] {
    arrive_and_wait();
    slots[1] = 2;
  });
  slots[0] = 1;
  arrive_and_wait();
  const int other = slots[1];
  t.join();
  return other >= 0 ? 0 : 1;
}
