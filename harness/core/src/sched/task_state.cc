// A thread's state from /proc; see racelab/task_state.h.
#include "racelab/task_state.h"

#include <fcntl.h>
#include <sys/syscall.h>

#include <cstdio>
#include <cstring>

#include "racelab/raw_syscall.h"

namespace racelab {

long read_task_file(long tid, const char* file, char* buffer, long size) {
  char path[96];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/%s", tid, file);
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long total = 0;
  while (total < size - 1) {
    const long got =
        raw_syscall(SYS_read, fd, buffer + total, size - 1 - total);
    if (got <= 0) break;
    total += got;
  }
  raw_syscall(SYS_close, fd);
  buffer[total] = '\0';
  return total;
}

char task_state(long tid) {
  char stat[512];
  if (read_task_file(tid, "stat", stat, sizeof stat) <= 0) return '?';
  // "tid (comm) S ...": the name may hold spaces and parentheses.
  const char* close = std::strrchr(stat, ')');
  if (close == nullptr || close[1] != ' ' || close[2] == '\0') return '?';
  return close[2];
}

}  // namespace racelab
