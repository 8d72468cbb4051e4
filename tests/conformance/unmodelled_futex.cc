// Conformance: main waits for a flag with a futex system call made by inline
// assembly, which racelab cannot see; a thread publishes a value, sets the
// flag (release) and wakes it (clean). Under explore the main thread blocks
// in the kernel while it holds the baton: the others must run on, with a
// note naming the block, and no hang.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

std::atomic<int> flag{0};
int value = 0;

// The futex system call, made with the syscall instruction itself: no
// library function, nothing any interposer could see.
long raw_futex(std::atomic<int>* word, int op, int expected) {
#if defined(__x86_64__)
  long result;
  register long timeout asm("r10") = 0;
  asm volatile("syscall"
               : "=a"(result)
               : "0"(static_cast<long>(SYS_futex)), "D"(word), "S"(op),
                 "d"(expected), "r"(timeout)
               : "rcx", "r11", "memory");
  return result;
#else
  return syscall(SYS_futex, word, op, expected, nullptr, nullptr, 0);
#endif
}

int main() {
  std::thread publisher([] {
    value = 42;
    flag.store(1, std::memory_order_release);
    raw_futex(&flag, FUTEX_WAKE_PRIVATE, 1);
  });
  while (flag.load(std::memory_order_acquire) == 0) {
    raw_futex(&flag, FUTEX_WAIT_PRIVATE, 0);
  }
  const int seen = value;
  publisher.join();
  return seen == 42 ? 0 : 1;
}
