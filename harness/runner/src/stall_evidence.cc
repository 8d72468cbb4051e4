// Reads the evidence of stall_evidence.h from the kernel: the process's CPU
// clock and its threads' states in /proc/self/task.
#include "stall_evidence.h"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "racelab/task_state.h"

namespace racelab {

std::int64_t process_cpu_ns() {
  timespec now{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return 0;
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

bool some_thread_awake(pid_t watcher) {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return true;
  bool awake = false;
  while (const dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    if (std::atol(entry->d_name) == watcher) continue;
    const char state = task_state(std::atol(entry->d_name));
    // A thread that ended between readdir and open has no state to give.
    if (state == 'R' || state == 'D') {
      awake = true;
      break;
    }
  }
  closedir(tasks);
  return awake;
}

std::string describe(Stall stall, int limit_ms) {
  switch (stall) {
    case Stall::kBlocked:
      return absl::StrCat("every thread asleep in the kernel for ", limit_ms,
                          " ms");
    case Stall::kSpinning:
      return absl::StrCat(limit_ms, " ms of CPU time spent without progress");
    case Stall::kStarved:
      break;
  }
  return "runnable threads waiting for the CPU";
}

}  // namespace racelab
