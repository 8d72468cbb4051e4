// Conformance: the racy twin of unmodelled_read: the writer changes the value
// again after the write that wakes the reader, which reads it unordered (a
// data race). Under explore the reader blocks in the kernel while it holds
// the baton; the run goes on, and the race is still found.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

int value = 0;
std::atomic<bool> published{false};

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  std::thread writer([&] {
    value = 42;
    published.store(true, std::memory_order_release);
    if (write(fds[1], "x", 1) != 1) return;
    value = 43;
  });
  char byte = 0;
  if (syscall(SYS_read, fds[0], &byte, 1) != 1) return 3;
  if (!published.load(std::memory_order_acquire)) return 4;
  const int seen = value;
  writer.join();
  close(fds[0]);
  close(fds[1]);
  return seen >= 42 ? 0 : 1;
}
