// The futex hand-off of baton.h, and the looks at /proc the watch for
// unmodelled blocks takes. Compiled without sanitizer instrumentation
// (harness/core/CMakeLists.txt): these atomics are invisible to TSan, and
// only raw system calls are made (never an interposed one).
#include "racelab/baton.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

bool try_lock_unseen(int* word) {
  int expected = 0;
  return __atomic_compare_exchange_n(word, &expected, 1, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void unlock_unseen(int* word) { __atomic_store_n(word, 0, __ATOMIC_RELEASE); }

void yield_cpu() { raw_syscall(SYS_sched_yield); }

void sleep_while_zero(int* word, int ms) {
  const timespec pause{ms / 1000, (ms % 1000) * 1000000L};
  if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != 0) return;
  raw_syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, &pause, nullptr, 0);
}

void wake_unseen(int* word) { futex(word, FUTEX_WAKE_PRIVATE, 1); }

long own_tid() { return raw_syscall(SYS_gettid); }

namespace {

// Reads /proc/self/task/<tid>/<file> into `buffer` (NUL-terminated); the
// number of bytes, or -1.
long read_task_file(long tid, const char* file, char* buffer, long size) {
  char path[96];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/%s", tid, file);
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long total = 0;
  while (total < size - 1) {
    const long got = raw_syscall(SYS_read, fd, buffer + total, size - 1 - total);
    if (got <= 0) break;
    total += got;
  }
  raw_syscall(SYS_close, fd);
  buffer[total] = '\0';
  return total;
}

}  // namespace

char task_state(long tid) {
  char stat[512];
  if (read_task_file(tid, "stat", stat, sizeof stat) <= 0) return '?';
  // "tid (comm) S ...": the name may hold spaces and parentheses.
  const char* close = std::strrchr(stat, ')');
  if (close == nullptr || close[1] != ' ' || close[2] == '\0') return '?';
  return close[2];
}

bool other_task_running(long a, long b) {
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
                          O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(8) char entries[4096];
  bool running = false;
  for (;;) {
    const long got = raw_syscall(SYS_getdents64, fd, entries, sizeof entries);
    if (got <= 0) break;
    for (long at = 0; at < got && !running;) {
      // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
      unsigned short length;
      std::memcpy(&length, entries + at + 16, sizeof length);
      const char* name = entries + at + 19;
      at += length;
      if (name[0] < '0' || name[0] > '9') continue;
      const long tid = std::strtol(name, nullptr, 10);
      if (tid == a || tid == b) continue;
      const char state = task_state(tid);
      running = state == 'R' || state == 'D';
    }
    if (running) break;
  }
  raw_syscall(SYS_close, fd);
  return running;
}

bool task_syscall(long tid, long* number, unsigned long* pc) {
  char text[512];
  if (read_task_file(tid, "syscall", text, sizeof text) <= 0) return false;
  // "nr arg1 ... arg6 sp pc", or "running", or "-1 sp pc" (not in one).
  char* cursor = text;
  const long nr = std::strtol(cursor, &cursor, 10);
  if (cursor == text || nr < 0) return false;
  unsigned long last = 0;
  for (int field = 0; field < 8; ++field) {
    char* next;
    const unsigned long value = std::strtoul(cursor, &next, 16);
    if (next == cursor) return false;
    last = value;
    cursor = next;
  }
  *number = nr;
  *pc = last;
  return true;
}

void park_forever() {
  int never = 0;
  for (;;) futex(&never, FUTEX_WAIT_PRIVATE, 0);
}

}  // namespace racelab::sched
