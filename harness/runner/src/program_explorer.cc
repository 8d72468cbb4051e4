// Whole-program exploration: a fresh process per schedule, each told its
// strategy through the shared channel, judged by how it ended: a TSan report
// on its stderr, a signal, an exit status, or the channel's deadlock and
// livelock reports; no decision for hang_seconds is a hang.
#include "racelab/program_explorer.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "racelab/input_error.h"
#include "racelab/process_output.h"
#include "racelab/program_channel.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/saved_schedule.h"
#include "racelab/sched/schedule_file.h"

namespace racelab {
namespace {

using program_channel::Channel;
using program_channel::Status;

constexpr int kExecFailed = 127;

// A memfd of the channel's size, mapped here; the child gets the descriptor.
class ChannelFile {
 public:
  ChannelFile() {
    fd_ = memfd_create("racelab-program-channel", 0);  // inherited by exec
    if (fd_ < 0 || ftruncate(fd_, sizeof(Channel)) != 0) {
      throw std::runtime_error("cannot create the program channel");
    }
    void* memory = mmap(nullptr, sizeof(Channel), PROT_READ | PROT_WRITE,
                        MAP_SHARED, fd_, 0);
    if (memory == MAP_FAILED) {
      throw std::runtime_error("cannot map the program channel");
    }
    channel_ = static_cast<Channel*>(memory);
  }
  ~ChannelFile() {
    munmap(channel_, sizeof(Channel));
    close(fd_);
  }
  ChannelFile(const ChannelFile&) = delete;
  ChannelFile& operator=(const ChannelFile&) = delete;
  int fd() const { return fd_; }
  Channel* get() const { return channel_; }

 private:
  int fd_ = -1;
  Channel* channel_ = nullptr;
};

// The TSan reports in a run's stderr, one finding each.
std::vector<Finding> tsan_reports(const std::string& err) {
  std::vector<Finding> findings;
  const std::string marker = "WARNING: ThreadSanitizer: ";
  std::size_t at = err.find(marker);
  while (at != std::string::npos) {
    const std::size_t line_end = err.find('\n', at);
    std::string description =
        err.substr(at + marker.size(), line_end == std::string::npos
                                           ? std::string::npos
                                           : line_end - at - marker.size());
    const std::size_t pid = description.find(" (pid=");
    if (pid != std::string::npos) description.resize(pid);
    // The printed title ("data race", "lock-order-inversion (potential
    // deadlock)") in the runtime's own spelling ("data-race").
    std::string spelled = description.substr(0, description.find(" ("));
    std::replace(spelled.begin(), spelled.end(), ' ', '-');
    const std::size_t next = err.find(marker, at + marker.size());
    const std::size_t block_end = err.find("==================", at);
    const std::string block = err.substr(
        at, (block_end == std::string::npos ? err.size() : block_end) - at);
    findings.push_back({tsan_report_kind(spelled),
                        Oracle::kTsan,
                        "ThreadSanitizer: " + description,
                        block,
                        std::nullopt,
                        {}});
    at = next;
  }
  return findings;
}

struct Run {
  int status = 0;
  bool hung = false;
  std::string err;
  std::string out;
};

Run run_once(const ProgramExploreOptions& options, const ChannelFile& file) {
  const int err = memfd_create("racelab-program-stderr", MFD_CLOEXEC);
  const int out = memfd_create("racelab-program-stdout", MFD_CLOEXEC);
  if (err < 0 || out < 0) throw std::runtime_error("memfd_create failed");
  std::vector<char*> argv;
  for (const std::string& arg : options.command) {
    argv.push_back(const_cast<char*>(arg.c_str()));
  }
  argv.push_back(nullptr);
  const std::string fd_text = std::to_string(file.fd());
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    setenv(program_channel::kEnvironmentVariable, fd_text.c_str(), 1);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "racelab: cannot run %s: %s\n", argv[0],
                 std::strerror(errno));
    _exit(kExecFailed);
  }
  Run run;
  using Clock = std::chrono::steady_clock;
  const Channel* channel = file.get();
  std::uint64_t beat = 0;
  Clock::time_point last_beat = Clock::now();
  for (;;) {
    if (waitpid(pid, &run.status, WNOHANG) == pid) break;
    const std::uint64_t now_beat =
        __atomic_load_n(&channel->heartbeat, __ATOMIC_RELAXED);
    if (now_beat != beat) {
      beat = now_beat;
      last_beat = Clock::now();
    } else if (Clock::now() - last_beat >
               std::chrono::seconds(options.hang_seconds)) {
      kill(pid, SIGKILL);
      waitpid(pid, &run.status, 0);
      run.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  run.err = read_all(err);
  run.out = read_all(out);
  close(err);
  close(out);
  return run;
}

void prepare(Channel* channel, const ProgramExploreOptions& options,
             int schedule, int step_estimate) {
  std::memset(static_cast<void*>(channel), 0, offsetof(Channel, replay));
  channel->magic = Channel::kMagic;
  channel->seed = options.seed + static_cast<std::uint64_t>(schedule);
  channel->depth = options.depth;
  channel->step_estimate = step_estimate;
  channel->max_steps = options.max_steps;
  channel->spin_bound = options.spin_bound;
  if (options.replay) {
    channel->strategy = program_channel::Strategy::kReplay;
    const int count = static_cast<int>(std::min<std::size_t>(
        options.replay_decisions.size(), Channel::kMaxDecisions));
    std::copy_n(options.replay_decisions.begin(), count, channel->replay);
    channel->replay_count = count;
  } else {
    channel->strategy = options.strategy == "random"
                            ? program_channel::Strategy::kRandom
                            : program_channel::Strategy::kPct;
  }
  channel->heartbeat = 0;
  channel->count = 0;
  channel->status = static_cast<std::int32_t>(Status::kRunning);
  channel->threads = 0;
  channel->text_size = 0;
}

// The findings of one run, or an InputError for a program that could not
// take part.
std::vector<Finding> judge(const Run& run, const Channel* channel,
                           const ProgramExploreOptions& options,
                           std::string* trace) {
  const std::string program = options.command.front();
  const auto status =
      static_cast<Status>(__atomic_load_n(&channel->status, __ATOMIC_ACQUIRE));
  const std::string text(
      channel->text,
      std::min<std::uint64_t>(channel->text_size, Channel::kTextBytes));
  const std::size_t split = text.find("\n\n");
  const std::string report = text.substr(0, split);
  if (split != std::string::npos) *trace = text.substr(split + 2);
  if (WIFEXITED(run.status) && WEXITSTATUS(run.status) == kExecFailed &&
      channel->heartbeat == 0) {
    throw InputError(
        absl::StrCat(program, ": cannot be run: ", tail(run.err, 300)));
  }
  if (status == Status::kError) {
    throw InputError(absl::StrCat(program, ": ", report));
  }
  if (status == Status::kRunning && channel->heartbeat == 0 && !run.hung &&
      !WIFSIGNALED(run.status)) {
    // A program with racelab::runtime makes its first decision before main.
    throw InputError(
        absl::StrCat(program,
                     ": ran without the controlled scheduler: build it with "
                     "-fsanitize=thread and link it with the CMake target "
                     "racelab::runtime"));
  }
  std::vector<Finding> findings = tsan_reports(run.err);
  if (run.hung) {
    findings.push_back({FindingKind::kTimeout,
                        Oracle::kTimeout,
                        absl::StrCat("hang: no scheduling decision for ",
                                     options.hang_seconds, " s"),
                        tail(run.err, 4000),
                        std::nullopt,
                        {}});
    return findings;
  }
  if (status == Status::kDeadlock) {
    findings.push_back(
        {FindingKind::kDeadlock,
         Oracle::kDeadlock,
         "every thread is blocked: " + report.substr(0, report.find('\n')),
         report,
         std::nullopt,
         {}});
  } else if (status == Status::kStepLimit) {
    findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         absl::StrCat("the schedule did not finish within ", options.max_steps,
                      " scheduling decisions: probable livelock"),
         "",
         std::nullopt,
         {}});
  }
  if (WIFSIGNALED(run.status)) {
    findings.push_back({FindingKind::kCrash,
                        Oracle::kCrash,
                        "killed by " + signal_text(WTERMSIG(run.status)),
                        tail(run.err, 4000),
                        std::nullopt,
                        {}});
  } else if (WIFEXITED(run.status) && WEXITSTATUS(run.status) != 0 &&
             findings.empty()) {
    findings.push_back(
        {FindingKind::kCrash,
         Oracle::kCrash,
         absl::StrCat("exited with status ", WEXITSTATUS(run.status)),
         tail(run.err, 4000),
         std::nullopt,
         {}});
  }
  return findings;
}

std::string default_schedule_path(const ProgramExploreOptions& options) {
  const char* tmp = std::getenv("TMPDIR");
  std::string name = options.command.front();
  name = name.substr(name.find_last_of('/') + 1);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' &&
        c != '.') {
      c = '_';
    }
  }
  return absl::StrCat((tmp != nullptr && *tmp != '\0') ? tmp : "/tmp",
                      "/racelab-", name, ".schedule");
}

}  // namespace

std::string program_schedule_text(const ProgramExploreOptions& options,
                                  const std::vector<int>& decisions) {
  sched::ScheduleFile file = program_schedule_file(
      options.command.front(), options.strategy, options.seed, decisions);
  for (std::size_t i = 0; i < options.command.size(); ++i) {
    if (options.command[i].empty()) continue;  // not storable; rare
    file.extra.emplace_back(absl::StrCat("arg.", i), options.command[i]);
  }
  return sched::write_schedule(file);
}

void program_schedule_options(const std::string& path,
                              const sched::ScheduleFile& file,
                              ProgramExploreOptions& options) {
  if (file.mode != kProgramScheduleMode) {
    throw InputError(
        absl::StrCat(path, ": mode is '", file.mode, "', not 'program'"));
  }
  options.command.clear();
  for (std::size_t i = 0;; ++i) {
    const std::string key = absl::StrCat("arg.", i);
    auto found = std::find_if(file.extra.begin(), file.extra.end(),
                              [&](const auto& kv) { return kv.first == key; });
    if (found == file.extra.end()) break;
    options.command.push_back(found->second);
  }
  if (options.command.empty()) {
    throw InputError(absl::StrCat(path, ": no arg.0 (the program) key"));
  }
  options.strategy = file.strategy;
  options.seed = file.seed;
  options.replay = true;
  options.replay_decisions = file.decisions;
}

ProgramExploreResult explore_program(const ProgramExploreOptions& options) {
  if (options.command.empty()) throw InputError("no program to explore");
  ChannelFile file;
  ProgramExploreResult result;
  int step_estimate = 64;
  const int budget = options.replay ? 1 : options.budget;
  for (int i = 0; i < budget; ++i) {
    prepare(file.get(), options, i, step_estimate);
    const Run run = run_once(options, file);
    const Channel* channel = file.get();
    const int count = std::min(channel->count, Channel::kMaxDecisions);
    result.decisions.assign(channel->decisions, channel->decisions + count);
    step_estimate = std::max(step_estimate, count);
    result.schedules = i + 1;
    result.trace.clear();
    std::vector<Finding> findings = judge(run, channel, options, &result.trace);
    if (!findings.empty()) {
      result.findings = std::move(findings);
      result.first_failing = i;
      break;
    }
  }
  if (result.found() && !options.replay) {
    result.schedule_file = options.schedule_path.empty()
                               ? default_schedule_path(options)
                               : options.schedule_path;
    write_schedule_bytes(result.schedule_file,
                         program_schedule_text(options, result.decisions));
  }
  return result;
}

std::string describe(const ProgramExploreResult& result,
                     const ProgramExploreOptions& options) {
  const std::string how =
      options.replay ? "replay"
                     : absl::StrCat(options.strategy, ", seed ", options.seed);
  if (!result.found()) {
    return absl::StrCat("racelab explore: ", options.command.front(),
                        ": clean over ", result.schedules, " schedules (", how,
                        ")\n");
  }
  std::string text = absl::StrCat(
      "racelab explore: ", options.command.front(), ": found at schedule ",
      result.first_failing + 1, " of ", result.schedules, " (", how, ")\n");
  for (const Finding& f : result.findings) {
    absl::StrAppend(&text, "  ", to_string(f.kind), ": ", f.summary, "\n");
    if (!f.detail.empty()) {
      absl::StrAppend(&text, f.detail, f.detail.back() == '\n' ? "" : "\n");
    }
  }
  if (!result.trace.empty()) absl::StrAppend(&text, "trace:\n", result.trace);
  if (!result.schedule_file.empty()) {
    absl::StrAppend(&text, "schedule saved: ", result.schedule_file,
                    " (racelab replay ", result.schedule_file, " reruns it)\n");
  }
  return text;
}

}  // namespace racelab
