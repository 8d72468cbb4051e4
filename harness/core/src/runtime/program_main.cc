// racelab::runtime: what a whole program links so that `racelab explore --
// ./program` can schedule it. The link option --wrap=main sends the C
// runtime's call of main here; without the channel (a normal run) main is
// called as it is. Under `racelab explore`, main runs as logical thread 0 of
// one controlled run on real OS threads (on the process's own thread, as
// without racelab; static constructors ran before, uncontrolled), every thread
// it starts is a logical thread, and the process exits with main's status once
// the run ends. Before any static constructor of the program, the channel is
// mapped and the sanitizer's reports are sent to the descriptor it names,
// so that what the program itself prints is never taken for a report. Under
// `racelab replay FILE --debug` there is no channel: the program follows the
// schedule by itself, under a debugger, and stops at its last decision.
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fork_server.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/program_channel.h"
#include "racelab/raw_syscall.h"
#include "racelab/remote_strategy.h"

extern "C" int __real_main(int argc, char** argv, char** envp);

// The mark `racelab explore` and `racelab replay` read from the program's
// ELF file before they run it (program_channel::kRuntimeSection).
__attribute__((
    used, retain,
    section(".racelab_runtime"))) constexpr char racelab_runtime_mark[] =
    "racelab-runtime 4";
static_assert(std::string_view(racelab_runtime_mark) ==
              racelab::program_channel::kRuntimeMark);

namespace racelab {
namespace {

using program_channel::Channel;
using program_channel::Status;

// The trace rows already in the channel.
std::size_t g_rows_sent = 0;

// Whether a symbolized frame is the program's own code: not racelab's, not
// the standard library's, not the system's.
bool in_program(std::string_view function, std::string_view file) {
  if (file.empty() || file == "??" || file == "<null>" || function.empty() ||
      function == "??" || function == "<null>") {
    return false;
  }
  for (std::string_view prefix : {"std::", "void std::", "__", "pthread_",
                                  "operator new", "operator delete"}) {
    if (function.starts_with(prefix)) return false;
  }
  // "<build>/../../harness/x.cc" (a unit compiled from a relative path) is
  // racelab's too.
  std::string normal(file);
  if (normal.find("/..") != std::string::npos) {
    normal = std::filesystem::path(normal).lexically_normal().string();
  }
  return !normal.starts_with("/usr/") &&
         !normal.starts_with(RACELAB_SOURCE_DIR "/harness/");
}

// Calls `each(frame)` for every frame of the calling thread's stack, its
// caller's first, with every function inlined at a return address as a
// frame of its own, innermost first, each symbolized with `format`
// (__sanitizer_symbolize_pc's); stops when `each` returns false.
template <int kDepth, class Each>
void for_each_frame(const char* format, Each each) {
  void* pcs[kDepth];
  const int depth = backtrace(pcs, kDepth);
  for (int i = 1; i < depth; ++i) {
    char text[4096] = {};
    // A return address: the call is the instruction before it. The text
    // holds one NUL-terminated frame per function inlined there, innermost
    // first, and ends with an empty one.
    __sanitizer_symbolize_pc(static_cast<char*>(pcs[i]) - 1, format, text,
                             sizeof text - 1);
    for (const char* at = text; *at != '\0' && at < text + sizeof text;
         at += std::strlen(at) + 1) {
      if (!each(std::string_view(at))) return;
    }
  }
}

// Where the calling thread is in the program's own code: the first such
// frame of its stack as "file:line" (the file's last component), or "".
std::string program_location() {
  std::string where;
  for_each_frame<48>("%f\x01%s\x01%l\x01%m", [&](std::string_view frame) {
    std::vector<std::string_view> parts;
    for (std::size_t from = 0;;) {
      const std::size_t end = frame.find('\x01', from);
      parts.push_back(frame.substr(from, end - from));
      if (end == std::string_view::npos) break;
      from = end + 1;
    }
    if (parts.size() != 4 || parts[2] == "0" || parts[3].starts_with("/lib") ||
        parts[3].starts_with("/usr/lib") || !in_program(parts[0], parts[1])) {
      return true;
    }
    where = std::string(parts[1].substr(parts[1].find_last_of('/') + 1)) + ":" +
            std::string(parts[2]);
    return false;
  });
  return where;
}

// The calling thread's call stack, one "    #n function file:line" line per
// frame (inlined frames included), from the first frame outside racelab's
// scheduler, interposer and runtime, and the sanitizer's own, down to the
// frame that entered racelab's thread start or main.
std::string call_stack() {
  std::string text;
  bool started = false;
  int number = 0;
  for_each_frame<128>("%f %L", [&](std::string_view frame) {
    // Below the program's frames: racelab's thread entry or main's.
    if (started && frame.starts_with("racelab::")) return false;
    if (!started && (frame.starts_with("racelab::") ||
                     frame.starts_with("__") || frame.starts_with("std::") ||
                     frame.find("/harness/") != std::string_view::npos)) {
      return true;
    }
    started = true;
    text +=
        "    #" + std::to_string(number++) + " " + std::string(frame) + "\n";
    return true;
  });
  return text;
}

// `racelab replay --stacks`: the running thread's stack at a decision.
void send_stack(Channel* channel, const sched::SwitchEvent& event) {
  if (event.from_thread < 0) return;  // the run's start: no thread stands yet
  std::string text = "decision " + std::to_string(channel->count) +
                     ": thread " + std::to_string(event.from_thread) + " at '" +
                     (event.from_site != nullptr ? event.from_site : "?") +
                     "', then thread " + std::to_string(event.to_thread) +
                     " runs\n" + call_stack();
  const std::uint64_t used = channel->stacks_size;
  const std::size_t size =
      std::min<std::uint64_t>(text.size(), Channel::kStacksBytes - used);
  std::memcpy(channel->stacks + used, text.data(), size);
  channel->stacks_size = used + size;
}

// Appends the trace's rows not sent yet, whole rows only, while they fit.
// `thread`'s last new row, the point where it stands now, gets where that
// is in the program's code.
void send_trace_rows(Channel* channel, const sched::Trace& trace,
                     int thread = -1) {
  if (trace.rows.size() <= g_rows_sent) return;
  std::vector<sched::TraceRow> fresh(
      trace.rows.begin() + static_cast<std::ptrdiff_t>(g_rows_sent),
      trace.rows.end());
  g_rows_sent = trace.rows.size();
  for (auto row = fresh.rbegin(); thread >= 0 && row != fresh.rend(); ++row) {
    if (row->thread != thread) continue;
    if (row->text != "finished") {
      const std::string where = program_location();
      if (!where.empty()) row->text += " [" + where + "]";
    }
    break;
  }
  const std::string rows = sched::encode_trace_rows(fresh, 0);
  std::size_t size = rows.size();
  const std::uint64_t used = channel->trace_size;
  if (used + size > Channel::kTraceBytes) {
    // Cut after the last row that fits.
    const std::size_t room = Channel::kTraceBytes - used;
    const std::size_t end = rows.rfind('\n', room == 0 ? 0 : room - 1);
    size = end == std::string::npos || room == 0 ? 0 : end + 1;
  }
  std::memcpy(channel->trace + used, rows.data(), size);
  channel->trace_size = used + size;
}

void record_decision(const sched::SwitchEvent& event, void* context) {
  auto* channel = static_cast<Channel*>(context);
  if (event.trace != nullptr) {
    send_trace_rows(channel, *event.trace, event.from_thread);
  }
  if (channel->want_stacks != 0) send_stack(channel, event);
  if (event.preemption) ++channel->preemptions;
  if (channel->count < Channel::kMaxDecisions) {
    channel->decisions[channel->count] = event.decision();
  }
  ++channel->count;
  channel->threads = std::max(channel->threads, event.to_thread + 1);
  __atomic_add_fetch(&channel->heartbeat, 1, __ATOMIC_RELAXED);
}

// A thread blocked outside every scheduling point: told at once, so that a
// crash or a hang later in the run does not lose it.
void record_block(const sched::UnmodelledBlock& block, void* context) {
  auto* channel = static_cast<Channel*>(context);
  const int index = channel->block_count;
  if (index < Channel::kMaxBlockNotes) {
    program_channel::BlockNote& note = channel->blocks[index];
    note.thread = block.thread;
    note.step = block.step;
    const std::size_t size = std::min(
        block.where.size(), program_channel::BlockNote::kWhereBytes - 1);
    std::memcpy(note.where, block.where.data(), size);
    note.where[size] = '\0';
  }
  __atomic_store_n(&channel->block_count, index + 1, __ATOMIC_RELEASE);
}

void write_text(Channel* channel, const std::string& text) {
  const std::size_t size = std::min(text.size(), Channel::kTextBytes);
  std::memcpy(channel->text, text.data(), size);
  channel->text_size = size;
}

[[noreturn]] void fail(Channel* channel, const std::string& why) {
  std::fprintf(stderr, "racelab runtime: %s\n", why.c_str());
  if (channel != nullptr) {
    write_text(channel, why);
    __atomic_store_n(&channel->status,
                     static_cast<std::int32_t>(Status::kError),
                     __ATOMIC_RELEASE);
  }
  raw_syscall(SYS_exit_group, 2);
  __builtin_unreachable();
}

// A descriptor number from the environment, removed from it; -1 if absent.
int descriptor_from(const char* variable, Channel* channel) {
  const char* text = std::getenv(variable);
  if (text == nullptr) return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || fd < 0 || fd > 1 << 20) {
    fail(channel,
         std::string(variable) + " is not a file descriptor: '" + text + "'");
  }
  unsetenv(variable);
  return static_cast<int>(fd);
}

Channel* map_channel(int fd) {
  void* memory =
      mmap(nullptr, sizeof(Channel), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (memory == MAP_FAILED) {
    fail(nullptr, "cannot map the channel of descriptor " + std::to_string(fd));
  }
  auto* channel = static_cast<Channel*>(memory);
  if (channel->magic != Channel::kMagic) {
    fail(channel, "the channel is not racelab's (bad magic)");
  }
  return channel;
}

// How a controlled run ended, as the process ends it: main's status, an
// abort for an exception main threw, or, for a run that did not complete
// (its blocked threads hold locks and stacks), an exit without the static
// destructors and without the sanitizer's end of the process (its reports
// were written as they were made).
int end_process(const sched::RunResult& run, Status end, int status) {
  if (!run.thread_errors.empty()) {
    // main threw: as an uncaught exception would.
    std::fprintf(stderr, "racelab runtime: %s\n", run.thread_errors[0].c_str());
    std::fflush(nullptr);
    std::abort();
  }
  if (end != Status::kCompleted) {
    // Past the sanitizer's _exit, whose end of the process would report
    // the run's finished, unjoined threads as leaked: a program stuck
    // there never exits, and never gets that report, without racelab.
    std::fflush(nullptr);
    raw_syscall(SYS_exit_group, 0);
  }
  return status;
}

Status status_of(const sched::RunResult& run) {
  switch (run.status) {
    case sched::RunResult::Status::kDeadlock:
      return Status::kDeadlock;
    case sched::RunResult::Status::kStepLimit:
      return Status::kStepLimit;
    case sched::RunResult::Status::kLengthLimit:
      return Status::kLengthLimit;
    default:
      return Status::kCompleted;
  }
}

std::string end_text(const sched::RunResult& run) {
  std::string text = run.deadlock_report + run.livelock_report;
  if (!run.deadlock_locks.empty()) text += "\n" + run.deadlock_locks;
  for (const std::string& error : run.thread_errors) {
    text += (text.empty() ? "" : "\n") + error;
  }
  return text;
}

// How a run of main ends the process, given main's status (0 when main
// could not go on): the channel's (run_controlled) or the debugger's
// replay's (run_replay).
using Finish = int (*)(const sched::RunResult& run, int status,
                       Channel* channel);

struct Stranded {
  Finish finish;
  Channel* channel;
};

// A run that ended with main unable to go on, on the thread that ended it.
[[noreturn]] void end_stranded(sched::RunResult& run, std::exception_ptr error,
                               void* context) {
  const auto* stranded = static_cast<const Stranded*>(context);
  if (error != nullptr) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      fail(stranded->channel,
           std::string("the schedule cannot be followed: ") + e.what());
    }
  }
  stranded->finish(run, 0, stranded->channel);
  std::fflush(nullptr);
  raw_syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}

// main as logical thread 0 of one controlled run, on the process's own
// thread, every decision `strategy`'s; `channel` (null for a replay under a
// debugger) is told of the run's unmodelled blocks and of a schedule that
// cannot be followed. Returns what `finish` returns.
int run_main(sched::Strategy& strategy, int max_steps, int spin_bound,
             bool memory_model, sched::SwitchObserver observer, void* context,
             Channel* channel, Finish finish, int argc, char** argv,
             char** envp) {
  sched::SchedulerOptions options;
  options.substrate = sched::Substrate::kOsThreads;
  options.max_steps = std::max(1, max_steps);
  options.spin_bound = spin_bound;
  options.memory_model = memory_model;
  sched::ControlledScheduler scheduler(options);
  scheduler.set_switch_observer(observer, context);
  if (channel != nullptr) scheduler.set_block_observer(&record_block, channel);
  Stranded stranded{finish, channel};
  int status = 0;
  sched::RunResult run;
  try {
    run = scheduler.run_program_here(
        [&] { status = __real_main(argc, argv, envp); }, strategy,
        &end_stranded, &stranded);
  } catch (const std::exception& e) {
    fail(channel, std::string("the schedule cannot be followed: ") + e.what());
  }
  return finish(run, status, channel);
}

int finish_controlled(const sched::RunResult& run, int status,
                      Channel* channel) {
  if (threads_outside_the_run_seen()) {
    // Their order with the run's threads was the kernel's: a search that
    // met them is not exhaustive.
    record_block({0, static_cast<int>(run.decisions.size()),
                  "threads outside the run (started before main) worked "
                  "beside it, in the kernel's order"},
                 channel);
  }
  send_trace_rows(channel, run.trace);
  channel->fairness_cut = run.fairness_cut ? 1 : 0;
  write_text(channel, end_text(run));
  const Status end = status_of(run);
  __atomic_store_n(&channel->status, static_cast<std::int32_t>(end),
                   __ATOMIC_RELEASE);
  return end_process(run, end, status);
}

int run_controlled(Channel* channel, int argc, char** argv, char** envp) {
  // Every decision is racelab's (remote_strategy.h).
  sched::RemoteStrategy strategy(&channel->mailbox,
                                 channel->records_trace != 0);
  return run_main(strategy, channel->max_steps, channel->spin_bound,
                  channel->memory_model != 0, &record_decision, channel,
                  channel, &finish_controlled, argc, argv, envp);
}

// `racelab replay FILE --debug`: the schedule, read before the program's
// constructors, followed with no racelab process (program_channel.h).
struct LocalReplay {
  std::vector<int> decisions;
  int max_steps = 1;
  int spin_bound = 0;
  bool memory_model = false;
  int made = 0;  // decisions made so far
};
LocalReplay* g_replay = nullptr;

LocalReplay* read_replay(const char* descriptor) {
  char* end = nullptr;
  const long fd = std::strtol(descriptor, &end, 10);
  program_channel::ReplayHeader header{};
  auto* replay = new LocalReplay;
  if (end == descriptor || *end != '\0' || fd < 0 ||
      pread(static_cast<int>(fd), &header, sizeof header, 0) !=
          static_cast<ssize_t>(sizeof header) ||
      header.magic != program_channel::ReplayHeader::kMagic ||
      header.count < 0 || header.count > Channel::kMaxDecisions) {
    fail(nullptr, std::string(program_channel::kReplayVariable) +
                      ": not a schedule racelab wrote: '" + descriptor + "'");
  }
  replay->decisions.resize(static_cast<std::size_t>(header.count));
  const auto bytes =
      static_cast<ssize_t>(replay->decisions.size() * sizeof(int));
  if (pread(static_cast<int>(fd), replay->decisions.data(),
            static_cast<std::size_t>(bytes), sizeof header) != bytes) {
    fail(nullptr, "the schedule's decisions cannot be read");
  }
  close(static_cast<int>(fd));
  replay->max_steps = std::max(1, header.max_steps);
  replay->spin_bound = header.spin_bound;
  replay->memory_model = header.memory_model != 0;
  return replay;
}

}  // namespace
}  // namespace racelab

// Where `racelab replay --debug` stops: called at the schedule's last
// decision, by the thread that reached it, before `next` runs the step that
// fails. A breakpoint's place: it does nothing.
extern "C" __attribute__((noinline, used, visibility("default"))) void
racelab_failing_step(int decision, int thread, int next) {
  asm volatile("" : : "r"(decision), "r"(thread), "r"(next) : "memory");
}

namespace racelab {
namespace {

void count_replayed(const sched::SwitchEvent& event, void* context) {
  auto* replay = static_cast<LocalReplay*>(context);
  const int decision = replay->made++;
  if (replay->made != static_cast<int>(replay->decisions.size())) return;
  std::fprintf(stderr,
               "racelab: the schedule's last decision (%d): thread %d at "
               "'%s', then thread %d runs the step that fails\n",
               decision, event.from_thread,
               event.from_site != nullptr ? event.from_site : "?",
               event.to_thread);
  racelab_failing_step(decision, event.from_thread, event.to_thread);
}

int finish_replay(const sched::RunResult& run, int status, Channel*) {
  const std::string text = end_text(run);
  if (!text.empty()) std::fprintf(stderr, "racelab: %s\n", text.c_str());
  return end_process(run, status_of(run), status);
}

int run_replay(LocalReplay* replay, int argc, char** argv, char** envp) {
  sched::ReplayStrategy strategy(replay->decisions, sched::ReplayMode::kStrict);
  return run_main(strategy, replay->max_steps, replay->spin_bound,
                  replay->memory_model, &count_replayed, replay, nullptr,
                  &finish_replay, argc, argv, envp);
}

// The channel of this process under `racelab explore`, else nullptr. Set
// once, before the program's own constructors, and only read after.
Channel* g_channel = nullptr;
// Where the sanitizer's reports go (-1: where they would go anyway), and the
// fork server's socket (-1: every schedule is a fresh process).
int g_report_fd = -1;
int g_fork_server = -1;
// The fork server's: the descriptors open before the program's constructors.
std::vector<int>* g_inherited = nullptr;

void send_reports_to_channel() {
  if (g_report_fd >= 0) {
    __sanitizer_set_report_fd(
        reinterpret_cast<void*>(static_cast<std::intptr_t>(g_report_fd)));
  }
}

// A process the program forks reports to the same descriptor (the
// sanitizer would otherwise drop a descriptor its parent opened).
void after_fork_in_child() { send_reports_to_channel(); }

// Runs before the program's static constructors (priority 101, the first a
// program may use): what they do under the sanitizer is reported too.
__attribute__((constructor(101))) void attach_channel() {
  if (const char* replay = std::getenv(program_channel::kReplayVariable)) {
    g_replay = read_replay(replay);
    unsetenv(program_channel::kReplayVariable);
    return;
  }
  const int channel_fd =
      descriptor_from(program_channel::kEnvironmentVariable, nullptr);
  if (channel_fd < 0) return;
  g_channel = map_channel(channel_fd);
  g_report_fd = g_channel->report_fd;
  g_fork_server =
      descriptor_from(program_channel::kForkServerVariable, g_channel);
  if (g_fork_server >= 0) {
    g_inherited = new std::vector<int>(runtime_internal::open_descriptors());
  }
  send_reports_to_channel();
  pthread_atfork(nullptr, nullptr, &after_fork_in_child);
}

// Under the fork server, main starts in a copy of this process made for
// the schedule (fork_server.h); otherwise here.
int run_explored(int argc, char** argv, char** envp) {
  if (g_fork_server >= 0) {
    g_report_fd =
        runtime_internal::serve_forks(g_fork_server, *g_inherited).report_fd;
    g_fork_server = -1;
    send_reports_to_channel();
  }
  return run_controlled(g_channel, argc, argv, envp);
}

}  // namespace
}  // namespace racelab

namespace racelab::runtime_internal {
void keep_tsan_defaults();  // tsan_defaults.cc
}  // namespace racelab::runtime_internal

extern "C" int __wrap_main(int argc, char** argv, char** envp) {
  racelab::runtime_internal::keep_tsan_defaults();
  racelab::note_main_entered();
  if (racelab::g_replay != nullptr) {
    return racelab::run_replay(racelab::g_replay, argc, argv, envp);
  }
  if (racelab::g_channel == nullptr) return __real_main(argc, argv, envp);
  return racelab::run_explored(argc, argv, envp);
}
