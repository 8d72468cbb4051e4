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

// Whether `match(number, dir)` holds for an entry of folder `path` whose name
// is a number (a thread of /proc/self/task, a descriptor of /proc/self/fd);
// `dir` is the descriptor the folder is read through. Stops at the first.
template <class Match>
bool any_numbered_entry(const char* path, Match match) {
  const long dir = raw_syscall(SYS_openat, AT_FDCWD, path,
                               O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return false;
  alignas(8) char entries[4096];
  bool found = false;
  while (!found) {
    const long got = raw_syscall(SYS_getdents64, dir, entries, sizeof entries);
    if (got <= 0) break;
    for (long at = 0; at < got && !found;) {
      // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
      unsigned short length;
      std::memcpy(&length, entries + at + 16, sizeof length);
      const char* name = entries + at + 19;
      at += length;
      if (name[0] < '0' || name[0] > '9') continue;
      found = match(std::strtol(name, nullptr, 10), dir);
    }
  }
  raw_syscall(SYS_close, dir);
  return found;
}

}  // namespace

bool other_task_running(long a, long b) {
  return any_numbered_entry("/proc/self/task", [&](long tid, long) {
    if (tid == a || tid == b) return false;
    const char state = task_state(tid);
    return state == 'R' || state == 'D';
  });
}

bool task_syscall(long tid, TaskSyscall* call) {
  char text[512];
  if (read_task_file(tid, "syscall", text, sizeof text) <= 0) return false;
  // "nr arg1 ... arg6 sp pc", or "running", or "-1 sp pc" (not in one).
  char* cursor = text;
  const long nr = std::strtol(cursor, &cursor, 10);
  if (cursor == text || nr < 0) return false;
  unsigned long fields[8];
  for (unsigned long& value : fields) {
    char* next;
    value = std::strtoul(cursor, &next, 16);
    if (next == cursor) return false;
    cursor = next;
  }
  call->number = nr;
  for (int i = 0; i < 6; ++i) call->args[i] = fields[i];
  call->sp = fields[6];
  call->pc = fields[7];
  return true;
}

namespace {

// The target of /proc/self/fd/<fd> ("pipe:[1234]"), "" when unreadable.
long fd_target(long fd, char* buffer, long size) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/fd/%ld", fd);
  const long got =
      raw_syscall(SYS_readlinkat, AT_FDCWD, path, buffer, size - 1);
  buffer[got > 0 ? got : 0] = '\0';
  return got;
}

// The access mode (O_RDONLY, O_WRONLY, O_RDWR) of descriptor `fd`, or -1.
long fd_access_mode(long fd) {
  char path[64];
  char info[256];
  // /proc/self/fdinfo/<fd>: "pos: 0\nflags: 0100001\n...", flags in octal.
  std::snprintf(path, sizeof path, "/proc/self/fdinfo/%ld", fd);
  const long file =
      raw_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (file < 0) return -1;
  const long got = raw_syscall(SYS_read, file, info, sizeof info - 1);
  raw_syscall(SYS_close, file);
  if (got <= 0) return -1;
  info[got] = '\0';
  const char* flags = std::strstr(info, "flags:");
  if (flags == nullptr) return -1;
  return std::strtol(flags + 6, nullptr, 8) & O_ACCMODE;
}

// Whether this process holds an end of the pipe behind `fd` open for
// `mode` (O_WRONLY: a writer; O_RDONLY: a reader) on another descriptor.
bool pipe_peer_in_process(long fd, long mode) {
  char target[64];
  if (fd_target(fd, target, sizeof target) <= 0 ||
      std::strncmp(target, "pipe:", 5) != 0) {
    return false;
  }
  return any_numbered_entry("/proc/self/fd", [&](long other, long dir) {
    if (other == fd || other == dir) return false;
    char other_target[64];
    if (fd_target(other, other_target, sizeof other_target) <= 0 ||
        std::strcmp(other_target, target) != 0) {
      return false;
    }
    const long access = fd_access_mode(other);
    return access == mode || access == O_RDWR;
  });
}

}  // namespace

bool only_this_process_can_end(const TaskSyscall& call) {
  switch (call.number) {
    case SYS_futex: {
      // A wait with no time limit; a private futex is this process's own,
      // and a shared one is most often too (another process's is rare).
      const int command = static_cast<int>(call.args[1]) & FUTEX_CMD_MASK;
      const bool waits =
          command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET ||
          command == FUTEX_LOCK_PI || command == FUTEX_WAIT_REQUEUE_PI;
      return waits && call.args[3] == 0;
    }
    case SYS_read:
    case SYS_readv:
    case SYS_pread64:
      return pipe_peer_in_process(static_cast<long>(call.args[0]), O_WRONLY);
    case SYS_write:
    case SYS_writev:
    case SYS_pwrite64:
      return pipe_peer_in_process(static_cast<long>(call.args[0]), O_RDONLY);
    default:
      return false;
  }
}

void park_forever() {
  int never = 0;
  for (;;) futex(&never, FUTEX_WAIT_PRIVATE, 0);
}

}  // namespace racelab::sched
