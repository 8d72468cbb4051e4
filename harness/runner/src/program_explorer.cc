// Whole-program exploration: the engine's search (controlled_internal::
// explore) with a fresh process tree per schedule, whose every decision the
// strategy here makes through the channel's mailbox (remote_strategy.h); each
// run is judged by how it ended: a report on the sanitizer's own report pipe,
// a signal, an exit status, or the channel's deadlock and livelock reports; no
// decision for hang_seconds is a hang.
#include "racelab/program_explorer.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "program_process.h"
#include "racelab/atomic_file.h"
#include "racelab/expectation.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/process_output.h"
#include "racelab/program_channel.h"
#include "racelab/program_schedule.h"
#include "racelab/remote_strategy.h"
#include "racelab/saved_schedule.h"
#include "runtime_mark.h"

namespace racelab {
namespace {

using program_channel::Channel;
using program_channel::Status;

// A memfd of the channel's size, mapped here; the child gets the descriptor.
class ChannelFile {
 public:
  ChannelFile() {
    // Close-on-exec here; the program's copy has it unset before exec.
    fd_ = memfd_create("racelab-program-channel", MFD_CLOEXEC);
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

// The reports on the sanitizer's report pipe, one finding each. Only the
// sanitizer writes there: what the program prints never reaches it.
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

void prepare(Channel* channel, const ProgramExploreOptions& options,
             bool records_trace) {
  std::memset(static_cast<void*>(channel), 0, offsetof(Channel, decisions));
  channel->magic = Channel::kMagic;
  channel->max_steps = options.max_steps;
  channel->spin_bound = options.spin_bound;
  channel->memory_model = options.memory_model ? 1 : 0;
  channel->records_trace = records_trace ? 1 : 0;
  channel->status = static_cast<std::int32_t>(Status::kRunning);
  channel->threads = 0;
  channel->preemptions = 0;
  channel->fairness_cut = 0;
  channel->text_size = 0;
  channel->trace_size = 0;
  channel->block_count = 0;
  channel->report_fd = -1;
  channel->want_stacks = options.stacks ? 1 : 0;
  channel->stacks_size = 0;
  std::memset(static_cast<void*>(&channel->mailbox), 0,
              offsetof(program_channel::Mailbox, words));
}

// A program's stderr and stdout, as a finding shows them.
std::string output_text(const ProgramRun& run) {
  std::string text;
  auto add = [&](const char* name, const BoundedText& stream) {
    if (stream.total() == 0) return;
    absl::StrAppend(
        &text, "program ", name, " (", stream.total(), " bytes",
        stream.dropped() > 0
            ? absl::StrCat(", the last ", stream.total() - stream.dropped(),
                           " kept")
            : std::string(),
        "):\n");
    std::string body = stream.text();
    if (!body.empty() && body.back() != '\n') body += '\n';
    text += body;
  };
  add("stderr", run.err);
  add("stdout", run.out);
  return text;
}

// The findings of one run, or an InputError for a program that could not
// take part.
std::vector<Finding> judge(const ProgramRun& run, const Channel* channel,
                           const ProgramExploreOptions& options,
                           const std::string& strategy_error) {
  const std::string program = options.command.front();
  const auto status =
      static_cast<Status>(__atomic_load_n(&channel->status, __ATOMIC_ACQUIRE));
  // The scheduler's own words: an error's reason, a deadlock's report.
  const std::string report(
      channel->text,
      std::min<std::uint64_t>(channel->text_size, Channel::kTextBytes));
  if (run.exec_errno != 0) {
    throw InputError(absl::StrCat(
        program, ": cannot be run: ", std::strerror(run.exec_errno)));
  }
  if (!strategy_error.empty()) {
    throw InputError(absl::StrCat(
        program, ": the schedule cannot be followed: ", strategy_error));
  }
  if (status == Status::kError) {
    throw InputError(
        absl::StrCat(program, ": ", report.substr(0, report.find('\n'))));
  }
  const std::string reports = run.reports.text();
  if (status == Status::kRunning && channel->heartbeat == 0 && !run.hung &&
      !WIFSIGNALED(run.status) && reports.empty()) {
    // A program with racelab::runtime makes its first decision before main.
    throw InputError(
        absl::StrCat(program,
                     ": ran without the controlled scheduler: build it with "
                     "-fsanitize=thread and link it with the CMake target "
                     "racelab::runtime"));
  }
  std::vector<Finding> findings = tsan_reports(reports);
  const std::string output = output_text(run);
  if (run.hung) {
    findings.push_back({FindingKind::kTimeout,
                        Oracle::kTimeout,
                        absl::StrCat("hang: no scheduling decision for ",
                                     options.hang_seconds, " s"),
                        absl::StrCat("the program's threads when it was "
                                     "stopped:\n",
                                     run.hung_threads, output),
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
    // The scheduler's evidence (RunResult::livelock_report), its first line.
    findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         sched::limit_summary(
             sched::RunResult::Status::kStepLimit, options.max_steps,
             report.substr(0, std::min<std::size_t>(report.find('\n'), 400))),
         "",
         std::nullopt,
         {}});
  }
  // Status::kLengthLimit is no finding: the run was cut while making
  // progress (RunObservation::length_cut).
  if (WIFSIGNALED(run.status)) {
    std::string detail =
        reports.find("WARNING: ThreadSanitizer: ") == std::string::npos
            ? reports
            : std::string();
    findings.push_back({FindingKind::kCrash,
                        Oracle::kCrash,
                        "killed by " + signal_text(WTERMSIG(run.status)),
                        detail + output,
                        std::nullopt,
                        {}});
  } else if (WIFEXITED(run.status) && WEXITSTATUS(run.status) != 0 &&
             findings.empty()) {
    findings.push_back(
        {FindingKind::kCrash,
         Oracle::kCrash,
         absl::StrCat("exited with status ", WEXITSTATUS(run.status)),
         reports + output,
         std::nullopt,
         {}});
  }
  return findings;
}

// racelab's per-user folder for saved schedules (saved_schedule.h).
std::string schedule_folder() {
  std::string why;
  std::string folder = private_schedule_folder(&why);
  if (folder.empty()) {
    throw InputError(absl::StrCat(
        "cannot keep the failing schedule in racelab's own folder: ", why,
        " (name a file with --save-schedule)"));
  }
  return folder;
}

// A new file in `folder` named after the program, created exclusively.
std::string new_schedule_file(const std::string& folder,
                              const std::string& program) {
  std::string name =
      file_name_part(program.substr(program.find_last_of('/') + 1));
  if (name.size() > 100) name.resize(100);
  std::string path = absl::StrCat(folder, "/", name, "-XXXXXX.schedule");
  const int fd = ::mkostemps(path.data(), 9, O_CLOEXEC);
  if (fd < 0) {
    throw OutputError(absl::StrCat("cannot create a schedule file in '", folder,
                                   "': ", std::strerror(errno)));
  }
  ::close(fd);
  return path;
}

// One schedule of the program under `strategy`, as the engine's search
// runs it (controlled_internal::ScheduleRunner).
// How every process of the program starts: its file, its arguments, the
// channel.
ProgramLaunch program_launch(const ProgramExploreOptions& options,
                             const CheckedProgram& program, ChannelFile& file) {
  ProgramLaunch launch;
  launch.program_fd = program.fd();
  launch.argv = options.command;
  launch.channel_fd = file.fd();
  launch.report_fd_slot = &file.get()->report_fd;
  launch.heartbeat = &file.get()->heartbeat;
  launch.hang_seconds = options.hang_seconds;
  launch.stop_requested = options.stop_requested;
  return launch;
}

// The processes of a search: copies of one started process while it
// serves, fresh ones otherwise.
struct Processes {
  std::unique_ptr<ForkServer> server;
  std::string fresh_why;  // why not copies, when they were wanted
  int forked = 0;
};

// What one worker of a search runs its schedules with.
struct Worker {
  ChannelFile file;
  Processes processes;
};

RunObservation run_schedule(const ProgramExploreOptions& options,
                            const CheckedProgram& program, ChannelFile& file,
                            Processes& processes, sched::Strategy& strategy,
                            ProgramExploreResult* result_out) {
  Channel* channel = file.get();
  prepare(channel, options, strategy.records_trace());
  const ProgramLaunch launch = program_launch(options, program, file);
  sched::StrategyServer server(&channel->mailbox, &strategy);
  std::optional<ProgramRun> copied;
  if (processes.server != nullptr) {
    copied = processes.server->run(launch);
    if (copied) {
      ++processes.forked;
    } else {
      processes.server.reset();
      processes.fresh_why = "the fork server ended (killed)";
    }
  }
  const ProgramRun run = copied ? std::move(*copied) : run_program(launch);
  server.stop();
  if (run.interrupted) throw controlled_internal::ScheduleStopped{};
  if (options.stacks && result_out != nullptr) {
    const std::uint64_t size =
        std::min<std::uint64_t>(channel->stacks_size, Channel::kStacksBytes);
    result_out->stacks.assign(channel->stacks, size);
    result_out->stacks_cut = size == Channel::kStacksBytes;
  }

  sched::RunResult result;
  const int count = std::clamp(channel->count, 0, Channel::kMaxDecisions);
  result.decisions.assign(channel->decisions, channel->decisions + count);
  result.preemptions = std::max(0, channel->preemptions);
  // A run that did not end its schedule (a crash, a hang) still ends it on
  // the strategy, so that a search's next schedule starts from a whole one.
  result.more_schedules = server.began() && !server.ended()
                              ? strategy.end_schedule()
                              : server.more_schedules();
  const int blocks =
      std::clamp(__atomic_load_n(&channel->block_count, __ATOMIC_ACQUIRE), 0,
                 Channel::kMaxBlockNotes);
  for (int b = 0; b < blocks; ++b) {
    const program_channel::BlockNote& note = channel->blocks[b];
    result.unmodelled_blocks.push_back(
        {note.thread, note.step,
         std::string(
             note.where,
             strnlen(note.where, program_channel::BlockNote::kWhereBytes))});
  }
  std::vector<Finding> findings = judge(run, channel, options, server.error());
  // The trace as far as the run got; the program is untrusted, and a trace
  // that does not decode is left out.
  const std::string rows(
      channel->trace,
      std::min<std::uint64_t>(channel->trace_size, Channel::kTraceBytes));
  const int threads =
      std::clamp(channel->threads, 1, sched::kMaxProgramThreads);
  if (std::optional<sched::Trace> trace =
          sched::decode_trace(absl::StrCat("threads ", threads, "\n", rows))) {
    result.trace = std::move(*trace);
  }
  const auto status =
      static_cast<Status>(__atomic_load_n(&channel->status, __ATOMIC_ACQUIRE));
  if (status == Status::kDeadlock) {
    result.status = sched::RunResult::Status::kDeadlock;
  } else if (status == Status::kStepLimit) {
    result.status = sched::RunResult::Status::kStepLimit;
  } else if (status == Status::kLengthLimit) {
    result.status = sched::RunResult::Status::kLengthLimit;
    result.limit = std::max<std::int64_t>(
        sched::SchedulerOptions{}.max_total_steps, options.max_steps);
  }
  result.fairness_cut = channel->fairness_cut != 0;
  // Every scheduling point of a whole program is inside its code.
  result.inner_points = count;
  RunObservation observation = controlled_internal::observe_schedule(
      std::move(result), std::move(findings), 0);
  // Blocks past the channel's first notes are counted, not described.
  observation.unmodelled_blocks =
      std::max(observation.unmodelled_blocks, channel->block_count);
  if (!observation.findings.empty()) observation.log = output_text(run);
  return observation;
}

// "1 run", "14 runs".
std::string runs_text(int n) {
  return absl::StrCat(n, n == 1 ? " run" : " runs");
}

// How a search was made, as its result's first line says: "pct, seed 1",
// "dfs, 2 preemptions", "replay".
std::string search_how(const ProgramExploreOptions& options) {
  if (options.replay) return "replay";
  const bool tree =
      options.strategy == "dfs" || options.strategy == "plain-dfs";
  std::string how =
      tree ? absl::StrCat(
                 options.strategy, ", ",
                 options.preemptions < 0
                     ? std::string("no preemption bound")
                     : absl::StrCat(options.preemptions, " preemptions"))
           : absl::StrCat(options.strategy, ", seed ", options.seed);
  if (options.shard_count > 1) {
    absl::StrAppend(&how, ", shard ", options.shard_index, "/",
                    options.shard_count);
  }
  return how;
}

// "st", "nd", "rd" or "th", as after `n` in "1st", "22nd", "13th".
const char* ordinal_suffix(int n) {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  switch (n % 10) {
    case 1:
      return "st";
    case 2:
      return "nd";
    case 3:
      return "rd";
    default:
      return "th";
  }
}

}  // namespace

std::optional<ForkServerUse> fork_server_use_named(std::string_view name) {
  if (name == "auto") return ForkServerUse::kAuto;
  if (name == "on") return ForkServerUse::kOn;
  if (name == "off") return ForkServerUse::kOff;
  return std::nullopt;
}

ProgramExploreResult explore_program(ProgramExploreOptions options) {
  if (options.command.empty()) throw InputError("no program to explore");
  const std::string where = options.replay ? "replay" : "explore";
  options.command.front() = resolve_program(where, options.command.front());
  const CheckedProgram program =
      open_runtime_program(where, options.command.front());
  std::string folder;
  if (!options.replay) {
    if (!options.schedule_path.empty()) {
      check_output_file("--save-schedule", options.schedule_path);
    } else {
      folder = schedule_folder();
    }
  }
  RunRequest request = controlled_request_from(options);
  request.shrink = options.shrink;
  request.replay = options.replay;
  request.replay_decisions = options.replay_decisions;
  request.stop_requested = options.stop_requested;
  request.jobs = options.jobs;
  request.shard_index = options.shard_index;
  request.shard_count = options.shard_count;
  // Throws std::invalid_argument naming a bad strategy or parameter.
  if (!options.replay) {
    sched::make_strategy(options.strategy, options.seed, options.depth,
                         options.preemptions);
  }

  adopt_orphans();
  // One worker per job: a channel and processes of its own. The first
  // also shrinks and replays.
  std::vector<std::unique_ptr<Worker>> workers;
  auto add_worker = [&]() -> Worker& {
    Worker& worker = *workers.emplace_back(std::make_unique<Worker>());
    if (options.fork_server != ForkServerUse::kOff) {
      prepare(worker.file.get(), options, false);
      worker.processes.server =
          ForkServer::start(program_launch(options, program, worker.file),
                            &worker.processes.fresh_why);
      if (worker.processes.server == nullptr &&
          options.fork_server == ForkServerUse::kOn) {
        throw InputError(absl::StrCat(options.command.front(),
                                      ": --fork-server on: the program "
                                      "cannot be copied before main: ",
                                      worker.processes.fresh_why));
      }
    }
    return worker;
  };
  Worker& first = add_worker();
  ProgramExploreResult result;
  // The failing schedule's file: made and written when the finding is,
  // before the shrink, and written again with the shrunk schedule.
  // A file that cannot be written costs the file, never the finding: the
  // error is kept for the report (ProgramExploreResult::save_error), and a
  // file made here and left empty is removed.
  bool saved = false;
  auto save_schedule = [&](const std::vector<int>& decisions) {
    std::string made;
    try {
      if (result.schedule_file.empty()) {
        if (options.schedule_path.empty()) {
          made = new_schedule_file(folder, options.command.front());
          result.schedule_file = made;
        } else {
          result.schedule_file = options.schedule_path;
        }
      }
      write_file_atomically(result.schedule_file,
                            program_schedule_text(options, decisions));
      saved = true;
    } catch (const OutputError& e) {
      if (!saved) {
        if (!made.empty()) ::unlink(made.c_str());
        result.schedule_file.clear();
        result.save_error = e.what();
      } else {
        result.save_error = absl::StrCat(e.what(),
                                         "; it holds the schedule "
                                         "as found, not shrunk");
      }
    }
  };
  std::atomic<bool> shrinking = false;
  if (!options.replay) {
    request.on_found = [&](const RunObservation& found) {
      shrinking = true;
      save_schedule(found.schedule.decisions);
      if (options.on_found) {
        ProgramExploreResult as_found;
        as_found.search = found;
        as_found.schedule_file = result.schedule_file;
        options.on_found(as_found);
      }
    };
  }
  std::atomic<int> runs = 0;
  const auto ran = [&options, &runs, &shrinking] {
    const int so_far = ++runs;
    if (options.on_progress) options.on_progress(so_far, shrinking);
  };
  const controlled_internal::ScheduleRunner runner =
      [&](std::uint64_t, const std::vector<std::string>*,
          sched::Strategy& strategy) {
        RunObservation observed = run_schedule(
            options, program, first.file, first.processes, strategy, &result);
        ran();
        return observed;
      };
  const std::function<controlled_internal::WorkerRunner()> more_workers =
      [&]() -> controlled_internal::WorkerRunner {
    Worker& worker = add_worker();
    return [&options, &program, &worker, &ran](std::uint64_t,
                                               sched::Strategy& strategy) {
      RunObservation observed = run_schedule(
          options, program, worker.file, worker.processes, strategy, nullptr);
      ran();
      return observed;
    };
  };
  const controlled_internal::ProgramEncoder no_program = [](std::uint64_t) {
    return std::vector<std::string>{};
  };
  const auto started = std::chrono::steady_clock::now();
  try {
    // A whole program does not depend on racelab's seed: one program.
    result.search = controlled_internal::explore(runner, no_program, request,
                                                 false, more_workers);
  } catch (const controlled_internal::ScheduleStopped&) {
    // Stopped during the search, before any finding (a stopped shrink
    // returns its finding).
    result.interrupted = true;
    result.search.schedules = runs;  // the schedules that ran to their end
  }
  // The search with its shrink, as the person waiting for it counts.
  result.wall_time = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - started);
  result.program = options.command.front();
  result.interrupted = result.interrupted || result.search.interrupted;
  std::string fresh_why;
  bool server_ended = false;
  for (const std::unique_ptr<Worker>& worker : workers) {
    result.forked_schedules += worker->processes.forked;
    worker->processes.server.reset();
    if (fresh_why.empty()) fresh_why = worker->processes.fresh_why;
    if (!worker->processes.fresh_why.empty() && worker->processes.forked > 0) {
      server_ended = true;
    }
  }
  if (options.jobs > 1 && !options.replay && options.strategy == "plain-dfs") {
    result.search.warnings.push_back(absl::StrCat(
        "--jobs ", options.jobs,
        ": a plain-dfs search runs one schedule at a time (each depends on "
        "the ones before); pct, random and dfs run --jobs at once"));
  }
  if (!fresh_why.empty() && !result.interrupted) {
    result.search.warnings.push_back(
        absl::StrCat(server_ended ? "schedules after the fork server ended "
                                    "started fresh processes"
                                  : "every schedule started a fresh process",
                     " (no fork server: ", fresh_why, ")"));
  }
  if (options.replay && !result.interrupted) {
    result.search.schedules = 1;
    const std::size_t ran = result.search.schedule.decisions.size();
    if (ran > options.replay_decisions.size()) {
      result.inconclusive =
          absl::StrCat("the schedule holds ", options.replay_decisions.size(),
                       " decisions and the program went on past them (", ran,
                       " decisions): it does not describe a whole run");
    }
  }
  if (result.found() && !options.replay) {
    save_schedule(result.search.schedule.decisions);
  }
  return result;
}

std::string describe(const ProgramExploreResult& result,
                     const ProgramExploreOptions& options) {
  const RunObservation& search = result.search;
  const std::string how = search_how(options);
  const std::string& program = options.command.front();
  if (!result.inconclusive.empty() && !result.found()) {
    return absl::StrCat("racelab replay: ", program,
                        ": inconclusive: ", result.inconclusive, "\n");
  }
  std::string notes;
  for (const std::string& warning : search.warnings) {
    absl::StrAppend(&notes, "note: ", warning, "\n");
  }
  if (!result.found()) {
    if (search.exhaustive && !result.interrupted) {
      return absl::StrCat("racelab explore: ", program,
                          ": verified: every schedule that matters, ",
                          search.schedules, " in all (", how, ")\n", notes);
    }
    return absl::StrCat("racelab explore: ", program,
                        result.interrupted      ? ": interrupted, clean over "
                        : search.length_cut > 0 ? ": inconclusive, clean over "
                                                : ": clean over ",
                        search.schedules, " schedules (", how, ")\n", notes);
  }
  // The shrink's reruns, apart from the search's schedules.
  std::string shrink;
  if (result.interrupted) {
    shrink = absl::StrCat(", shrinking interrupted after ",
                          runs_text(search.shrink_runs), ": reported as found");
  } else if (options.shrink && !options.replay) {
    shrink = absl::StrCat(", shrunk over ", runs_text(search.shrink_runs));
  }
  std::string text =
      options.shard_count > 1 && !options.replay
          ? absl::StrCat("racelab explore: ", program, ": found at schedule ",
                         search.first_failing + 1, " (", how, ": its ",
                         search.schedules, ordinal_suffix(search.schedules),
                         " schedule)", shrink, "\n")
          : absl::StrCat("racelab explore: ", program, ": found at schedule ",
                         search.first_failing + 1, " of ", search.schedules,
                         " (", how, ")", shrink, "\n");
  if (!result.inconclusive.empty()) {
    absl::StrAppend(&text, "  inconclusive replay: ", result.inconclusive,
                    "\n");
  }
  for (const Finding& f : search.findings) {
    absl::StrAppend(&text, "  ", to_string(f.kind), ": ", f.summary, "\n");
    if (!f.detail.empty()) {
      absl::StrAppend(&text, f.detail, f.detail.back() == '\n' ? "" : "\n");
    }
  }
  const sched::Trace& trace = search.schedule.trace;
  if (!trace.rows.empty()) {
    absl::StrAppend(&text, "trace (", search.schedule.decisions.size(),
                    " decisions, ", search.schedule.preemptions,
                    " preemptions):\n", sched::format_trace(trace));
  }
  if (!result.schedule_file.empty()) {
    absl::StrAppend(&text, "schedule saved: ", result.schedule_file,
                    " (racelab replay ", result.schedule_file, " reruns it)\n");
  }
  if (!result.save_error.empty()) {
    absl::StrAppend(&text, "racelab explore: the schedule was not saved: ",
                    result.save_error, "\n");
  }
  return text + notes;
}

std::string describe_found(const ProgramExploreResult& found,
                           const ProgramExploreOptions& options,
                           const std::string& who) {
  const RunObservation& search = found.search;
  std::string text =
      absl::StrCat(who, ": found at schedule ", search.first_failing + 1, " (",
                   search_how(options), ")");
  if (!search.findings.empty()) {
    const Finding& first = search.findings.front();
    absl::StrAppend(&text, ": ", to_string(first.kind), ": ", first.summary);
  }
  absl::StrAppend(&text, "\n");
  if (!found.schedule_file.empty()) {
    absl::StrAppend(&text, who, ": saved as found in ", found.schedule_file,
                    "; shrinking it (SIGINT or SIGTERM stops the shrink and "
                    "keeps the finding as found)\n");
  }
  return text;
}

}  // namespace racelab
