// Whether a stress run whose progress counter stands still is stuck or only
// starved of the CPU. A machine under load can leave a correct run's threads
// waiting for a core for seconds; that is never a hang. A hang needs
// evidence: every thread of the process asleep in the kernel for the whole
// limit (a deadlock, a wait nobody will end), or the process burning a whole
// limit of CPU time without progress (a livelock, a spin). A run whose
// threads are runnable but hardly get the CPU has neither, and is waited for.
#ifndef RACELAB_RUNNER_STALL_EVIDENCE_H_
#define RACELAB_RUNNER_STALL_EVIDENCE_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace racelab {

enum class Stall {
  kStarved,   // no evidence yet: keep waiting
  kBlocked,   // every thread asleep in the kernel for the limit
  kSpinning,  // a limit of CPU time spent without progress
};

// The looks at the process since its last progress, one per watchdog tick.
class StallEvidence {
 public:
  // Progress: the evidence starts again from `cpu_ns`, the process's CPU
  // time now.
  void restart(std::int64_t cpu_ns) {
    cpu_at_restart_ns_ = cpu_ns;
    asleep_ticks_ = 0;
  }
  // One look without progress: whether some thread other than the watcher
  // was runnable or running ('R') or in an uninterruptible wait ('D': disk,
  // which ends by itself).
  void look(bool some_thread_awake) {
    if (!some_thread_awake) ++asleep_ticks_;
  }
  // The verdict for a limit of `limit_ms`, looks `tick_ms` apart, with the
  // process's CPU time now `cpu_ns`.
  Stall judge(std::int64_t cpu_ns, int limit_ms, int tick_ms) const {
    const std::int64_t limit_ns = std::int64_t{limit_ms} * 1'000'000;
    if (cpu_ns - cpu_at_restart_ns_ >= limit_ns) return Stall::kSpinning;
    if (std::int64_t{asleep_ticks_} * tick_ms >= limit_ms) {
      return Stall::kBlocked;
    }
    return Stall::kStarved;
  }

 private:
  std::int64_t cpu_at_restart_ns_ = 0;
  int asleep_ticks_ = 0;
};

// The CPU time the process has used, all its threads together.
std::int64_t process_cpu_ns();

// Whether some thread of this process other than `watcher` (a thread id)
// is awake: state 'R' or 'D' in /proc/self/task. True when /proc cannot be
// read (no evidence of sleep).
bool some_thread_awake(pid_t watcher);

// "every thread asleep in the kernel for 5000 ms" / "5000 ms of CPU time
// spent without progress".
std::string describe(Stall stall, int limit_ms);

}  // namespace racelab

#endif  // RACELAB_RUNNER_STALL_EVIDENCE_H_
