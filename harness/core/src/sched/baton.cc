// The futex hand-off of baton.h. Compiled without sanitizer instrumentation
// (harness/core/CMakeLists.txt): these atomics are invisible to TSan.
#include "racelab/baton.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "racelab/raw_syscall.h"

namespace racelab::sched {
namespace {

// The kernel's futex, never the interposed syscall() a controlled thread's
// futex goes through.
void futex(int* word, int op, int value) {
  raw_syscall(SYS_futex, word, op, value, nullptr, nullptr, 0);
}

}  // namespace

void Baton::post() {
  __atomic_store_n(&word_, 1, __ATOMIC_SEQ_CST);
  futex(&word_, FUTEX_WAKE_PRIVATE, 1);
}

void Baton::wait() {
  while (__atomic_exchange_n(&word_, 0, __ATOMIC_SEQ_CST) != 1) {
    futex(&word_, FUTEX_WAIT_PRIVATE, 0);
  }
}

int load_unseen(const int* word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

void store_unseen(int* word, int value) {
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

void park_forever() {
  int never = 0;
  for (;;) futex(&never, FUTEX_WAIT_PRIVATE, 0);
}

}  // namespace racelab::sched
