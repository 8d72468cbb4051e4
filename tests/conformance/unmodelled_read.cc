// Conformance: main reads a byte from a pipe through syscall(2), as code that
// makes its own system calls does, after a thread published a value (an
// atomic flag: TSan sees no order in a raw read) and wrote the byte (clean).
// racelab's read() gives way while a pipe is empty; this raw read blocks in
// the kernel while it holds the baton: the writer must run, with a note
// naming the block, and no hang.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
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
    if (write(fds[1], "x", 1) != 1) value = -1;
  });
  char byte = 0;
  if (syscall(SYS_read, fds[0], &byte, 1) != 1) return 3;
  if (!published.load(std::memory_order_acquire)) return 4;
  const int seen = value;
  writer.join();
  close(fds[0]);
  close(fds[1]);
  return seen == 42 ? 0 : 1;
}
