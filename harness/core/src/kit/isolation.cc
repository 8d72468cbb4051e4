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
};

Channel* g_channel = nullptr;  // set in the child only

void record_decision(const sched::SwitchEvent& event, void* context) {
  auto* channel = static_cast<Channel*>(context);
  const int count = __atomic_load_n(&channel->count, __ATOMIC_RELAXED);
  if (count < Channel::kMaxDecisions)
    channel->decisions[count] = event.to_thread;
  __atomic_store_n(&channel->count, count + 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&channel->heartbeat, 1, __ATOMIC_RELAXED);
}

// Copies the progress counter into the channel, forever (the child ends
// with exit_group, which ends this thread too).
void copy_progress(Channel* channel) {
  for (;;) {
    __atomic_store_n(&channel->progress, progress_steps(), __ATOMIC_RELAXED);
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
