// end_process_tree(): kills and reaps every process below the caller, for
// the processes that own a program's run (racelab's keeper, the program's
// fork server), each the subreaper of its tree. Raw system calls only: the
// keeper is a raw fork of a multi-threaded process.
#ifndef RACELAB_PROCESS_TREE_H_
#define RACELAB_PROCESS_TREE_H_

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <cerrno>
#include <ctime>

#include "racelab/raw_syscall.h"

namespace racelab {

// Kills the process group `group`, then every child the caller has (its
// own, and orphans it adopted as their subreaper), until it has none.
__attribute__((no_sanitize("thread", "address"))) inline void end_process_tree(
    pid_t group) {
  for (int round = 0; round < 20000; ++round) {
    raw_syscall(SYS_kill, -group, SIGKILL);
    char list[4096];
    const long fd =
        raw_syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/children",
                    O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      const long n = raw_syscall(SYS_read, fd, list, sizeof list - 1);
      raw_syscall(SYS_close, fd);
      long pid = 0;
      for (long i = 0; i < (n > 0 ? n : 0); ++i) {
        if (list[i] >= '0' && list[i] <= '9') {
          pid = pid * 10 + (list[i] - '0');
        } else if (pid > 0) {
          raw_syscall(SYS_kill, pid, SIGKILL);
          pid = 0;
        }
      }
      if (pid > 0) raw_syscall(SYS_kill, pid, SIGKILL);
    }
    for (;;) {
      const long reaped =
          raw_syscall(SYS_wait4, -1, nullptr, WNOHANG | __WALL, nullptr);
      if (reaped > 0) continue;
      if (reaped < 0 && errno == ECHILD) return;  // nothing left below
      break;
    }
    struct timespec pause = {0, 100000};
    raw_syscall(SYS_nanosleep, &pause, nullptr);
  }
}

}  // namespace racelab

#endif  // RACELAB_PROCESS_TREE_H_
