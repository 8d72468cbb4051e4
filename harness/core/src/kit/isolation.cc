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
    const int count =
        std::min(__atomic_load_n(&channel->count, __ATOMIC_ACQUIRE),
                 Channel::kMaxDecisions);
    outcome.decisions.assign(channel->decisions, channel->decisions + count);
  }
  munmap(memory, sizeof(Channel));
  return outcome;
}

// The text form: one record a line, fields separated by spaces; in a field,
// '\\' '\n' ' ' are escaped ("\\\\", "\\n", "\\s") and an empty field is "\\0".
namespace {

std::string field(std::string_view text) {
  if (text.empty()) return "\\0";
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == ' ') {
      out += "\\s";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unfield(std::string_view text) {
  if (text == "\\0") return "";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char c = text[++i];
      out += c == 'n' ? '\n' : c == 's' ? ' ' : c;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> fields(std::string_view line) {
  std::vector<std::string> out;
  while (!line.empty()) {
    const std::size_t end = line.find(' ');
    out.push_back(unfield(line.substr(0, end)));
    if (end == std::string_view::npos) break;
    line.remove_prefix(end + 1);
  }
  return out;
}

void add_record(std::string& text, std::string_view key,
                std::initializer_list<std::string> values) {
  text += key;
  for (const std::string& v : values) absl::StrAppend(&text, " ", field(v));
  text += '\n';
}

std::string frame_line(const Frame& f) {
  return absl::StrCat(field(f.function), " ", field(f.file), " ", f.line, " ",
                      to_string(f.origin));
}

Frame frame_of(const std::vector<std::string>& v) {
  Frame f;
  if (v.size() < 5) return f;
  f.function = v[1];
  f.file = v[2];
  f.line = std::atoi(v[3].c_str());
  f.origin = parse_frame_origin(v[4]).value_or(FrameOrigin::kUser);
  return f;
}

int as_int(const std::vector<std::string>& v, std::size_t i) {
  return i < v.size() ? std::atoi(v[i].c_str()) : 0;
}

}  // namespace

std::string encode_observation(const RunObservation& o) {
  std::string text;
  absl::StrAppend(&text, "counts ", o.operations, " ", o.runs, " ", o.schedules,
                  " ", o.first_failing, " ", o.replay_diverged ? 1 : 0, " ",
                  o.more_schedules ? 1 : 0, " ", o.inner_points, "\n");
  for (const Finding& f : o.findings) {
    add_record(text, "finding",
               {to_string(f.kind), to_string(f.oracle), f.summary, f.detail});
    if (f.subject_frame) {
      absl::StrAppend(&text, "frame ", frame_line(*f.subject_frame), "\n");
    }
    for (const Access& a : f.accesses) {
      add_record(
          text, "access",
          {a.what, std::to_string(a.thread), std::to_string(a.tsan_tid)});
      for (const Frame& fr : a.stack) {
        absl::StrAppend(&text, "stack ", frame_line(fr), "\n");
      }
    }
  }
  const RecordedSchedule& s = o.schedule;
  for (const std::string& line : s.program) add_record(text, "program", {line});
  text += "decisions";
  for (int d : s.decisions) absl::StrAppend(&text, " ", d);
  text += '\n';
  absl::StrAppend(&text, "schedule ", s.preemptions, " ",
                  static_cast<int>(s.status), " ", s.trace.thread_count, "\n");
  for (const sched::TraceRow& r : s.trace.rows) {
    add_record(text, "row",
               {std::to_string(r.step), std::to_string(r.thread),
                std::to_string(static_cast<int>(r.kind)), r.text, r.lock,
                r.shared ? "1" : "0"});
  }
  for (const std::string& w : o.warnings) add_record(text, "warning", {w});
  add_record(
      text, "verdict",
      {o.exhaustive ? "1" : "0", std::to_string(o.inconclusive_linearizability),
       o.inconclusive_detail, std::to_string(o.suppressed)});
  for (const std::string& line : o.suppressions_used)
    add_record(text, "suppression", {line});
  add_record(text, "log", {o.log});
  add_record(text, "schedule_file", {o.schedule_file});
  add_record(text, "message", {o.message});
  return text;
}

RunObservation decode_observation(std::string_view text) {
  RunObservation o;
  for (const std::string& line : split_lines(text)) {
    const std::vector<std::string> v = fields(line);
    if (v.empty()) continue;
    const std::string& key = v[0];
    if (key == "counts" && v.size() >= 8) {
      o.operations = as_int(v, 1);
      o.runs = as_int(v, 2);
      o.schedules = as_int(v, 3);
      o.first_failing = as_int(v, 4);
      o.replay_diverged = v[5] == "1";
      o.more_schedules = v[6] == "1";
      o.inner_points = std::atol(v[7].c_str());
    } else if (key == "finding" && v.size() >= 5) {
      const auto kind = parse_finding_kind(v[1]);
      const auto oracle = parse_oracle(v[2]);
      o.findings.push_back({kind.value_or(FindingKind::kCrash),
                            oracle.value_or(Oracle::kCrash),
                            v[3],
                            v[4],
                            std::nullopt,
                            {}});
    } else if (key == "frame" && !o.findings.empty()) {
      o.findings.back().subject_frame = frame_of(v);
    } else if (key == "access" && v.size() >= 3 && !o.findings.empty()) {
      Access a;
      a.what = v[1];
      a.thread = as_int(v, 2);
      if (v.size() >= 4) a.tsan_tid = as_int(v, 3);
      o.findings.back().accesses.push_back(std::move(a));
    } else if (key == "stack" && !o.findings.empty() &&
               !o.findings.back().accesses.empty()) {
      o.findings.back().accesses.back().stack.push_back(frame_of(v));
    } else if (key == "program" && v.size() >= 2) {
      o.schedule.program.push_back(v[1]);
    } else if (key == "decisions") {
      for (std::size_t i = 1; i < v.size(); ++i) {
        o.schedule.decisions.push_back(std::atoi(v[i].c_str()));
      }
    } else if (key == "schedule" && v.size() >= 4) {
      o.schedule.preemptions = as_int(v, 1);
      o.schedule.status = static_cast<sched::RunResult::Status>(as_int(v, 2));
      o.schedule.trace.thread_count = as_int(v, 3);
    } else if (key == "row" && v.size() >= 7) {
      o.schedule.trace.rows.emplace_back(
          as_int(v, 1), as_int(v, 2),
          static_cast<sched::TraceKind>(as_int(v, 3)), v[4], v[5], v[6] == "1");
    } else if (key == "warning" && v.size() >= 2) {
      o.warnings.push_back(v[1]);
    } else if (key == "verdict" && v.size() >= 5) {
      o.exhaustive = v[1] == "1";
      o.inconclusive_linearizability = as_int(v, 2);
      o.inconclusive_detail = v[3];
      o.suppressed = as_int(v, 4);
    } else if (key == "suppression" && v.size() >= 2) {
      o.suppressions_used.push_back(v[1]);
    } else if (key == "log" && v.size() >= 2) {
      o.log = v[1];
    } else if (key == "schedule_file" && v.size() >= 2) {
      o.schedule_file = v[1];
    } else if (key == "message" && v.size() >= 2) {
      o.message = v[1];
    }
  }
  return o;
}

}  // namespace racelab::isolation
