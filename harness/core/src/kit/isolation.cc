// Running code under test in a forked child that reports through shared
// memory (racelab/internal/isolation.h), and the text form of a RunObservation
// that carries the child's result back.
#include "racelab/internal/isolation.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "absl/strings/str_cat.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/process_output.h"
#include "racelab/raw_syscall.h"

namespace racelab::isolation {
namespace {

// What the child shares with the parent, written as the child goes so that
// a crash or a hang still tells which schedule was in flight and how far it
// got. The result itself goes through a memfd (no size limit).
struct Channel {
  static constexpr int kMaxDecisions = 1 << 20;
  static constexpr std::size_t kProgramBytes = std::size_t{1} << 20;

  std::uint64_t heartbeat;  // decisions made so far, all schedules
  std::uint64_t progress;   // the child's progress counter, as last copied
  int schedule;             // the schedule in flight, 0-based; -1: none
  int count;                // its decisions so far
  int decisions[kMaxDecisions];
  std::size_t program_size;  // its program lines, '\n'-joined
  char program[kProgramBytes];
  int done;  // 1: the result file holds the body's text
  // Stress mode's table of lock waits, as last copied (watch_progress).
  int lock_rows;
  interpose_internal::StressLockRow locks[interpose_internal::kLockRows];
};

Channel* g_channel = nullptr;  // set in the child only

void record_decision(const sched::SwitchEvent& event, void* context) {
  auto* channel = static_cast<Channel*>(context);
  const int count = __atomic_load_n(&channel->count, __ATOMIC_RELAXED);
  if (count < Channel::kMaxDecisions)
    channel->decisions[count] = event.decision();
  __atomic_store_n(&channel->count, count + 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&channel->heartbeat, 1, __ATOMIC_RELAXED);
}

// Copies the progress counter into the channel, forever (the child ends
// with exit_group, which ends this thread too).
void copy_progress(Channel* channel) {
  for (;;) {
    __atomic_store_n(&channel->progress, progress_steps(), __ATOMIC_RELAXED);
    // The table goes beside the counter: a copy in the channel's memory
    // (the parent reads it once the child is stopped for good).
    interpose_internal::StressLockRow rows[interpose_internal::kLockRows];
    const int n = interpose_internal::copy_stress_lock_table(rows);
    std::memcpy(channel->locks, rows, sizeof rows);
    __atomic_store_n(&channel->lock_rows, n, __ATOMIC_RELAXED);
    const timespec pause{0, 20'000'000};
    nanosleep(&pause, nullptr);
  }
}

// Registered last in the child, so run first when the code under test calls
// exit(): the child ends there with that status, before any other exit-time
// work (static destructors, the sanitizers' leak check, atexit handlers)
// that could block on a lock the store or a suspended logical thread holds.
void end_at_exit(int status, void*) { raw_syscall(SYS_exit_group, status); }

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  if (text.empty()) return lines;
  for (;;) {
    const std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

}  // namespace

bool in_child() { return g_channel != nullptr; }

void begin_schedule(int index, const std::vector<std::string>* program) {
  Channel* channel = g_channel;
  if (channel == nullptr) return;
  std::string text;
  if (program != nullptr) {
    for (std::size_t i = 0; i < program->size(); ++i) {
      if (i > 0) text += '\n';
      text += (*program)[i];
    }
  }
  const std::size_t size = std::min(text.size(), Channel::kProgramBytes);
  std::memcpy(channel->program, text.data(), size);
  channel->program_size = size;
  __atomic_store_n(&channel->count, 0, __ATOMIC_RELAXED);
  const int next = index >= 0 ? index : channel->schedule + 1;
  __atomic_store_n(&channel->schedule, next, __ATOMIC_RELEASE);
}

void observe_decisions(sched::ControlledScheduler& scheduler) {
  if (g_channel != nullptr) {
    scheduler.set_switch_observer(&record_decision, g_channel);
  }
}

std::string ChildOutcome::summary(const std::string& subject,
                                  int hang_seconds) const {
  switch (end) {
    case ChildEnd::kResult:
      return "";
    case ChildEnd::kSignal:
      return absl::StrCat(subject, " was killed by ", signal_text(signal));
    case ChildEnd::kExited:
      return absl::StrCat(subject, " exited with status ", status,
                          " before the check ended");
    case ChildEnd::kNoResult:
      return absl::StrCat(subject,
                          " ended before the check did, without a result (a "
                          "sanitizer that died, or _exit)");
    case ChildEnd::kHang:
      return absl::StrCat(
          "hang: no progress (no scheduling decision, no operation step) for ",
          hang_seconds,
          " s (a thread blocked where racelab cannot see, or a loop without "
          "scheduling points)");
  }
  return "";
}

namespace {

using interpose_internal::StressLockRow;
using interpose_internal::WaitKind;

std::string stack_text(const interpose_internal::LockSite& site) {
  std::vector<const void*> stack;
  for (const void* pc : site.sites) {
    if (pc != nullptr) stack.push_back(pc);
  }
  return sched::first_user_frame(stack);
}

std::string address_text(const void* object) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%p", object);
  return buffer;
}

// The OS thread that holds `lock` in `rows`, or -1.
int holder_of(const std::vector<StressLockRow>& rows, const void* lock) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (int h = 0; h < rows[i].held_count; ++h) {
      if (rows[i].held[h].object == lock) return static_cast<int>(i);
    }
  }
  return -1;
}

// The table as text: a cycle of lock waits first, then each thread.
std::string describe_lock_waits(const std::vector<StressLockRow>& rows) {
  std::string cycle;
  // Follow waits-for from each waiting thread; a thread met twice closes a
  // cycle (at most rows.size() steps).
  for (std::size_t start = 0; start < rows.size() && cycle.empty(); ++start) {
    std::vector<int> path;
    int at = static_cast<int>(start);
    while (at >= 0 && rows[at].waiting == WaitKind::kLock &&
           std::find(path.begin(), path.end(), at) == path.end()) {
      path.push_back(at);
      at = holder_of(rows, rows[at].wait.object);
    }
    const auto first = std::find(path.begin(), path.end(), at);
    if (at < 0 || first == path.end()) continue;
    cycle = "lock-order deadlock:";
    for (auto it = first; it != path.end(); ++it) {
      cycle += absl::StrCat(
          " OS thread ", rows[*it].tid, " waits for ",
          address_text(rows[*it].wait.object), " held by OS thread ",
          rows[holder_of(rows, rows[*it].wait.object)].tid, ";");
    }
    cycle.back() = '\n';
  }
  std::string text;
  for (const StressLockRow& row : rows) {
    if (row.waiting == WaitKind::kNone && row.held_count == 0) continue;
    std::string line = absl::StrCat("OS thread ", row.tid);
    if (row.waiting == WaitKind::kLock) {
      const int holder = holder_of(rows, row.wait.object);
      absl::StrAppend(
          &line, " waits for lock ", address_text(row.wait.object), " ",
          stack_text(row.wait),
          holder >= 0 ? absl::StrCat(", held by OS thread ", rows[holder].tid)
                      : std::string(", held by no thread seen"));
    } else if (row.waiting == WaitKind::kCondition) {
      absl::StrAppend(&line, " waits on condition variable ",
                      address_text(row.wait.object), " ", stack_text(row.wait));
    } else {
      absl::StrAppend(&line, " runs");
    }
    for (int h = 0; h < row.held_count; ++h) {
      absl::StrAppend(&line, h == 0 ? "; holds " : ", ",
                      address_text(row.held[h].object), " (taken ",
                      stack_text(row.held[h]), ")");
    }
    text += line + "\n";
  }
  if (text.empty()) return "";
  return "locks when the hang was called (stress mode):\n" + cycle + text;
}

}  // namespace

ChildOutcome run_in_child(const std::function<std::string()>& body,
                          const ChildOptions& options) {
  void* memory = mmap(nullptr, sizeof(Channel), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    throw std::runtime_error(options.what + ": mmap of the channel failed");
  }
  auto* channel = static_cast<Channel*>(memory);
  channel->schedule = -1;
  const int err = memfd_create("racelab-child-stderr", MFD_CLOEXEC);
  const int out = memfd_create("racelab-child-result", MFD_CLOEXEC);
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    munmap(memory, sizeof(Channel));
    if (err >= 0) close(err);
    if (out >= 0) close(out);
    throw std::runtime_error(options.what + ": fork failed");
  }
  if (pid == 0) {
    // A process group of its own (a hang kills all of it), and never
    // outliving the test binary.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) raw_syscall(SYS_exit_group, 1);
    if (err >= 0) dup2(err, STDERR_FILENO);
    g_channel = channel;
    on_exit(&end_at_exit, nullptr);
    if (options.watch_progress) std::thread(copy_progress, channel).detach();
    const std::string text = body();
    if (out >= 0) write_all(out, text);
    __atomic_store_n(&channel->done, 1, __ATOMIC_RELEASE);
    std::fflush(nullptr);
    // Not _exit: TSan's interceptor of it would turn the reports it saw into
    // exit status 66; the result is in the channel already.
    raw_syscall(SYS_exit_group, 0);
  }
  setpgid(pid, pid);  // either side may win the race; both set the same

  // The parent waits; no progress for hang_seconds is a hang.
  using Clock = std::chrono::steady_clock;
  std::uint64_t beat = 0, steps = 0;
  Clock::time_point last = Clock::now();
  int status = 0;
  bool hung = false;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const std::uint64_t now_beat =
        __atomic_load_n(&channel->heartbeat, __ATOMIC_RELAXED);
    const std::uint64_t now_steps =
        options.watch_progress
            ? __atomic_load_n(&channel->progress, __ATOMIC_RELAXED)
            : 0;
    if (now_beat != beat || now_steps != steps) {
      beat = now_beat;
      steps = now_steps;
      last = Clock::now();
    } else if (Clock::now() - last >
               std::chrono::seconds(options.hang_seconds)) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }

  ChildOutcome outcome;
  outcome.child_stderr = err >= 0 ? read_all(err) : "";
  if (err >= 0) close(err);
  const bool finished = __atomic_load_n(&channel->done, __ATOMIC_ACQUIRE) == 1;
  if (out >= 0) {
    if (finished) outcome.result = read_all(out);
    close(out);
  }
  if (hung) {
    outcome.end = ChildEnd::kHang;
    const int rows =
        std::clamp(__atomic_load_n(&channel->lock_rows, __ATOMIC_RELAXED), 0,
                   interpose_internal::kLockRows);
    // The child's memory, the code under test's to scribble over: counts
    // are clamped before use.
    std::vector<StressLockRow> table(channel->locks, channel->locks + rows);
    for (StressLockRow& row : table) {
      row.held_count =
          std::clamp(row.held_count, 0, interpose_internal::kRowLocks);
    }
    outcome.lock_waits = describe_lock_waits(table);
  } else if (finished && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    outcome.end = ChildEnd::kResult;
  } else if (WIFSIGNALED(status)) {
    outcome.end = ChildEnd::kSignal;
    outcome.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    outcome.end = ChildEnd::kExited;
    outcome.status = WEXITSTATUS(status);
  } else {
    outcome.end = ChildEnd::kNoResult;
  }
  outcome.schedule = __atomic_load_n(&channel->schedule, __ATOMIC_ACQUIRE);
  if (outcome.schedule >= 0) {
    outcome.program =
        split_lines(std::string_view(channel->program, channel->program_size));
    const int made = __atomic_load_n(&channel->count, __ATOMIC_ACQUIRE);
    const int count = std::min(made, Channel::kMaxDecisions);
    outcome.decisions.assign(channel->decisions, channel->decisions + count);
    outcome.decisions_cut = made > Channel::kMaxDecisions;
  }
  munmap(memory, sizeof(Channel));
  return outcome;
}

}  // namespace racelab::isolation
