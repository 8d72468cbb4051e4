// Conformance: two threads meet at a one-shot barrier built on a raw futex
// (syscall(SYS_futex)), each then reading the slot the other wrote before
// arriving (clean: the arrival count is an acquire-release atomic).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <thread>

std::atomic<unsigned> arrived{0};
int slots[2];
int seen[2];

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

void work(int i) {
  slots[i] = i + 1;
  arrive_and_wait();
  seen[i] = slots[1 - i];
}

int main() {
  std::thread t(work, 1);
  work(0);
  t.join();
  return seen[0] == 2 && seen[1] == 1 ? 0 : 1;
}
