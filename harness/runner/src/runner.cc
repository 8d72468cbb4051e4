// The parent side of case runs: spawn, collect, time out, aggregate, judge.
#include "racelab/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "exec_signals.h"
#include "racelab/child_registry.h"
#include "racelab/child_request.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/json.h"
#include "racelab/raw_syscall.h"
#include "racelab/result_channel.h"
#include "racelab/schedule_source.h"
#include "racelab/symbol_cache.h"
#include "racelab_sanitizer_options.h"
#include "run_logs.h"

extern char** environ;

namespace racelab {
namespace {

constexpr size_t kMaxResults =
    256ull << 20;  // its result channel (traces can be long)
constexpr int kGraceMs = 2000;

// The child judges its own progress (its watchdog reports a run that makes no
// progress for the limit, and tells the parent once a second that it is
// alive). The parent only backs it up, for a child that goes silent without a
// word, so it waits much longer than the child would.
int parent_silence_limit_ms(const RunOptions& options) {
  return 2 * options.effective_run_timeout_ms() + 10000;
}

using Clock = std::chrono::steady_clock;

// The child's environment: ours, with racelab's sanitizer options in front of
// the user's own (later options win, so the user can override ours).
std::vector<std::string> child_environment(const RunOptions& options) {
  const OracleSet oracles = options.request.oracles;
  std::vector<std::string> env;
  const char* tsan = std::getenv("TSAN_OPTIONS");
  const char* asan = std::getenv("ASAN_OPTIONS");
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "TSAN_OPTIONS=", 13) == 0 ||
        std::strncmp(*e, "ASAN_OPTIONS=", 13) == 0 ||
        std::strncmp(*e, "RACELAB_SYMBOL_CACHE_FD=", 24) == 0) {
      continue;
    }
    env.emplace_back(*e);
  }
  // With the tsan oracle off, TSan still instruments but reports nothing.
  env.push_back(
      absl::StrCat("TSAN_OPTIONS=", RACELAB_TSAN_OPTIONS, ":", tsan ? tsan : "",
                   oracles.contains(Oracle::kTsan) ? "" : ":report_bugs=0",
                   // Many schedules, and many runs, share one process:
                   // report a race in every schedule and every run that
                   // has it, not only the first.
                   ":suppress_equal_stacks=0:suppress_equal_addresses=0"));
  env.push_back(absl::StrCat("ASAN_OPTIONS=", RACELAB_ASAN_OPTIONS, ":",
                             asan ? asan : ""));
  // Every child of this command symbolizes through one cache
  // (racelab/symbol_cache.h): a frame looked up once is never asked again.
  if (std::string cache = symbol_cache_environment(); !cache.empty())
    env.push_back(std::move(cache));
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    return absl::StrCat("killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return absl::StrCat("exited with status ", WEXITSTATUS(status));
}

// The signals that end a process from outside when racelab did not send
// them (a user's kill, a terminal hanging up, the out-of-memory killer).
// A subject's own crash ends it with another: SIGSEGV, SIGABRT, SIGBUS, ...
bool outside_signal(int sig) {
  return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
}

// Reads whatever is available on `fd` into `out`; false at end of file.
bool drain(int fd, std::string& out, size_t cap) {
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n <= 0) return false;
  if (out.size() < cap)
    out.append(buf, std::min(static_cast<size_t>(n), cap - out.size()));
  return true;
}

// The child's side of spawn_child, between fork and exec. It runs in a copy
// of a multi-threaded process made by a raw fork that the sanitizers did not
// see, so it makes raw system calls only and touches no instrumented memory.
// The death signal comes first: from here on the child cannot outlive the
// thread that spawned it, and if that thread is already gone (the parent died
// between fork and prctl), the parent check ends the child at once.
[[noreturn]] __attribute__((no_sanitize("thread", "address"))) void exec_child(
    char* const* argv, char* const* envp, pid_t parent, int log_fd,
    int result_fd, int request_fd, int error_fd) {
  raw_syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (raw_syscall(SYS_getppid) != parent) raw_syscall(SYS_exit_group, 127);
  restore_default_signals();
  int in = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC));
  if (in < 0 || raw_syscall(SYS_dup2, in, 0) < 0 ||
      raw_syscall(SYS_dup2, log_fd, 1) < 0 ||
      raw_syscall(SYS_dup2, log_fd, 2) < 0 ||
      raw_syscall(SYS_dup2, result_fd, 3) < 0 ||
      raw_syscall(SYS_dup2, request_fd, kChildRequestFd) < 0) {
    int e = errno;
    raw_syscall(SYS_write, error_fd, &e, sizeof e);
    raw_syscall(SYS_exit_group, 127);
  }
  raw_syscall(SYS_execve, argv[0], argv, envp);
  int e = errno;
  raw_syscall(SYS_write, error_fd, &e, sizeof e);
  raw_syscall(SYS_exit_group, 127);
  __builtin_unreachable();
}

// Starts argv[0] as a child whose stdout and stderr go to `log_fd` and whose
// file descriptor 3 is `result_fd` and 4 (kChildRequestFd) `request_fd`;
// stdin is /dev/null. Unlike posix_spawn,
// the child gets its death signal before exec (see exec_child). Throws when
// the program cannot be started.
pid_t spawn_child(char* const* argv, char* const* envp, int log_fd,
                  int result_fd, int request_fd) {
  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(absl::StrCat("pipe: ", std::strerror(errno)));
  const pid_t parent = ::getpid();
  // A raw fork: the copy only execs, so the sanitizers' fork handling (which
  // stops the world of a TSan process) is not needed.
  const long pid = raw_syscall(SYS_fork);
  if (pid == 0) {
    exec_child(argv, envp, parent, log_fd, result_fd, request_fd,
               error_pipe[1]);
  }
  ::close(error_pipe[1]);
  if (pid < 0) {
    const int e = errno;
    ::close(error_pipe[0]);
    throw std::runtime_error(
        absl::StrCat("cannot start ", argv[0], ": fork: ", std::strerror(e)));
  }
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(error_pipe[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  ::close(error_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    throw std::runtime_error(absl::StrCat("cannot start ", argv[0], ": ",
                                          std::strerror(child_errno)));
  }
  return static_cast<pid_t>(pid);
}

// Reaps a child that has ended (or, with `wait`, waits for it to end) and
// returns true; false when it is still running. The child leaves the child
// registry before it is reaped, so a stop never signals a pid that the system
// has already handed to another process.
bool reap(pid_t pid, int* status, bool wait) {
  siginfo_t info{};
  int rc;
  do {
    rc = ::waitid(P_PID, static_cast<id_t>(pid), &info,
                  WEXITED | WNOWAIT | (wait ? 0 : WNOHANG));
  } while (rc != 0 && errno == EINTR);
  if (rc == 0 && info.si_pid == 0) return false;  // still running
  child_registry().remove(pid);
  while (::waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

// Kills and reaps a child that an exception left behind. A child's death
// signal follows the thread that forked it (PR_SET_PDEATHSIG): the gate's
// workers are threads, and one that went on, or ended, with its child
// still running would have it killed later, in the middle of another case.
class ReapOnUnwind {
 public:
  explicit ReapOnUnwind(pid_t pid) : pid_(pid) {}
  ~ReapOnUnwind() {
    if (pid_ < 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    reap(pid_, &status, /*wait=*/true);
  }
  ReapOnUnwind(const ReapOnUnwind&) = delete;
  ReapOnUnwind& operator=(const ReapOnUnwind&) = delete;
  void reaped() { pid_ = -1; }

 private:
  pid_t pid_;
};

FindingKind kind_of_asan(std::string_view description) {
  if (description.find("use-after-free") != std::string_view::npos ||
      description.find("use-after-poison") != std::string_view::npos) {
    return FindingKind::kUseAfterFree;
  }
  return FindingKind::kCrash;
}

}  // namespace

std::string CaseResult::observed() const {
  if (kinds.empty()) return verified ? "verified" : "clean";
  return absl::StrJoin(kinds, ",", [](std::string* out, FindingKind k) {
    absl::StrAppend(out, to_string(k));
  });
}

std::string describe(const RetriedRun& retried) {
  return absl::StrCat(
      "run ", retried.run, " was retried: its process was killed by ",
      retried.signal,
      ", a signal racelab did not send, and left no sanitizer report",
      retried.ended_again
          ? "; the retry was killed the same way, so the run is a crash"
          : "");
}

namespace {

// The end of a log, from the start of a line, as a finding's detail.
std::string log_tail(const std::string& log) {
  std::size_t tail = log.size() > 8192 ? log.size() - 8192 : 0;
  if (tail > 0) {
    const std::size_t line = log.find('\n', tail);
    tail = line == std::string::npos ? tail : line + 1;
  }
  return log.substr(tail);
}

}  // namespace

std::vector<RunObservation> run_batch_in_child(const CaseSpec& spec,
                                               const RunOptions& options,
                                               int first_run, int runs) {
  const std::string case_name = absl::StrCat(
      spec.subject, " x ", spec.scenario, " (", to_string(options.request.mode),
      " runs ", first_run, "..", first_run + runs - 1, ")");
  int result_pipe[2], log_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0 || pipe2(log_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  // The child's command line is only the hidden command; the case and how
  // to run it come as one request on kChildRequestFd.
  ChildRequest request;
  request.subject = spec.subject;
  request.scenario = spec.scenario;
  request.run = options.request;
  request.run.run_index = first_run;
  request.runs = runs;
  request.run_timeout_ms = options.effective_run_timeout_ms();
  if (options.request.mode == Mode::kControlled)
    request.replay_schedule = options.replay_schedule;
  std::vector<std::string> args = {options.self_exe, "__child"};
  std::vector<std::string> env = child_environment(options);
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);
  const int request_fd = child_request_memfd(request);
  pid_t pid = -1;
  try {
    pid = spawn_child(argv.data(), envp.data(), log_pipe[1], result_pipe[1],
                      request_fd);
  } catch (...) {
    for (int fd :
         {result_pipe[0], result_pipe[1], log_pipe[0], log_pipe[1], request_fd})
      ::close(fd);
    throw;
  }
  ::close(request_fd);
  ::close(result_pipe[1]);
  ::close(log_pipe[1]);
  // An interrupted command stops every child it knows of; one spawned while
  // it did so is stopped at once (and its run then ends as killed).
  child_registry().add(pid);
  ReapOnUnwind reap_on_unwind(pid);

  // Collect until both pipes close or the deadline passes.
  std::string results;
  RunLogs logs(first_run, kMaxLog);
  // Any line from the child (controlled mode writes one per second as it
  // goes) pushes the deadline back: the limit is on silence, not on work.
  const auto limit =
      std::chrono::milliseconds(parent_silence_limit_ms(options));
  auto deadline = Clock::now() + limit;
  bool timed_out = false;
  pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {log_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR)
      break;
    for (pollfd& p : fds) {
      if (p.fd < 0 || (p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      bool open;
      if (p.fd == result_pipe[0]) {
        deadline = Clock::now() + limit;
        open = drain(p.fd, results, kMaxResults);
      } else {
        std::string piece;
        open = drain(p.fd, piece, kMaxLog);
        logs.append(piece);
      }
      if (!open) {
        p.fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  if (timed_out) {
    ::kill(pid, SIGTERM);
    const auto grace_end = Clock::now() + std::chrono::milliseconds(kGraceMs);
    while (!reap(pid, &status, /*wait=*/false)) {
      if (Clock::now() > grace_end) {
        ::kill(pid, SIGKILL);
        reap(pid, &status, /*wait=*/true);
        break;
      }
      ::usleep(10000);
    }
  } else {
    reap(pid, &status, /*wait=*/true);
  }
  reap_on_unwind.reaped();
  ::close(result_pipe[0]);
  ::close(log_pipe[0]);

  // Interpret the result channel: one run_done (or deadlock) line per run,
  // in order; what comes after the last one belongs to the run in flight.
  std::vector<RunObservation> done_runs;
  RunObservation record;
  std::vector<Finding> notices;  // from the raw hooks, used when the run died
  bool died_of_asan_report = false;
  int started = 0;  // runs the child began
  auto finish_run = [&] {
    record.log = logs.take(first_run + static_cast<int>(done_runs.size()));
    done_runs.push_back(std::move(record));
    record = RunObservation();
    notices.clear();
    died_of_asan_report = false;
  };
  std::istringstream lines(results);
  for (std::string line; std::getline(lines, line);) {
    if (static_cast<int>(done_runs.size()) == runs) break;
    nlohmann::json j =
        nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("event")) continue;
    try {
      const std::string event = j.value("event", "");
      if (event == "run_start") {
        ++started;
      } else if (event == "run_done") {
        record = observation_from_json(j.at("observation"));
        finish_run();
      } else if (event == "tsan_report") {
        std::string kind = j.value("kind", "");
        notices.push_back({tsan_report_kind(kind),
                           Oracle::kTsan,
                           absl::StrCat("ThreadSanitizer: ", kind,
                                        " (the run then died; see the log)"),
                           {},
                           std::nullopt,
                           {}});
      } else if (event == "asan_report") {
        std::string kind = j.value("kind", "");
        died_of_asan_report = true;
        notices.push_back({kind_of_asan(kind),
                           Oracle::kAsan,
                           absl::StrCat("AddressSanitizer: ", kind, " at ",
                                        j.value("frame", "")),
                           {},
                           std::nullopt,
                           {}});
      } else if (event == "deadlock") {
        record.findings.push_back({FindingKind::kDeadlock,
                                   Oracle::kDeadlock,
                                   j.value("message", ""),
                                   {},
                                   std::nullopt,
                                   {}});
        finish_run();
      } else if (event == "error") {
        throw InputError(absl::StrCat(case_name, ": ", j.value("message", "")));
      }
    } catch (const nlohmann::json::exception& e) {
      // A line the child wrote while dying (or a subject that scribbled over
      // the harness's memory): evidence of a crash, not a harness failure.
      notices.push_back({FindingKind::kCrash,
                         Oracle::kCrash,
                         absl::StrCat("the run wrote a malformed result line (",
                                      e.what(), ")"),
                         line.substr(0, 2000),
                         std::nullopt,
                         {}});
    }
  }
  if (static_cast<int>(done_runs.size()) == runs) return done_runs;
  // The child ended after a run's own verdict (its watchdog's timeout, a
  // self-deadlock) and before the next run began: the caller starts another.
  if (!done_runs.empty() && started <= static_cast<int>(done_runs.size()) &&
      !timed_out)
    return done_runs;
  // The run in flight ended the child: its finding is how the child ended.
  for (Finding& f : notices) record.findings.push_back(std::move(f));
  if (timed_out) {
    record.findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         absl::StrCat("the run was silent for ",
                      parent_silence_limit_ms(options),
                      " ms (its own watchdog did not report either) and was "
                      "killed: probable deadlock or hang"),
         {},
         std::nullopt,
         {}});
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    // The child's watchdog arms an alarm before it reports; the alarm firing
    // means the run hung and even the report could not be written.
    record.findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         "the run hung, and so did its watchdog's report (a thread stuck "
         "inside "
         "the sanitizer runtime): probable deadlock or livelock",
         {},
         std::nullopt,
         {}});
  } else if (!died_of_asan_report) {
    // Killed by a signal racelab did not send (it sends them only for a
    // hang, or to stop every child on an interrupt), with no sanitizer
    // report: run_case makes the run again before calling it a crash.
    if (WIFSIGNALED(status) && outside_signal(WTERMSIG(status)) &&
        notices.empty() && !child_registry().stopped()) {
      record.killed_from_outside = WTERMSIG(status);
    }
    // A death after TSan reports is a real crash (TSan does not halt on its
    // reports); an ASan report ends the process by design and is the finding.
    record.findings.push_back(
        {FindingKind::kCrash,
         Oracle::kCrash,
         absl::StrCat("the run ", describe_status(status), " before finishing"),
         {},
         std::nullopt,
         {}});
  }
  const int in_flight = first_run + static_cast<int>(done_runs.size());
  record.log = logs.take(in_flight);
  const std::string tail = log_tail(record.log);
  for (Finding& f : record.findings) {
    if (f.detail.empty()) f.detail = tail;
  }
  done_runs.push_back(std::move(record));
  return done_runs;
}

RunObservation run_in_child(const CaseSpec& spec, const RunOptions& options,
                            int run_index) {
  return run_batch_in_child(spec, options, run_index, 1).front();
}

void add_run(CaseResult& result, RunObservation run) {
  ++result.runs;
  result.schedules += run.schedules;
  if (run.exhaustive && run.findings.empty()) ++result.exhaustive_runs;
  result.verified = result.exhaustive_runs == result.runs;
  if (result.schedule.trace.rows.empty() && !run.schedule.trace.rows.empty() &&
      !run.findings.empty()) {
    result.first_failing = run.first_failing;
    result.schedule = std::move(run.schedule);
  }
  std::set<FindingKind> run_kinds;
  for (const Finding& f : run.findings) run_kinds.insert(f.kind);
  KindSet outcome;
  for (FindingKind k : run_kinds) outcome.insert(k);
  ++result.histogram[outcome];
  if (run.findings.empty()) return;
  ++result.runs_with_finding;
  if (result.first_failure_log.empty()) result.first_failure_log = run.log;
  std::set<FindingKind> kinds(result.kinds.begin(), result.kinds.end());
  kinds.insert(run_kinds.begin(), run_kinds.end());
  result.kinds.assign(kinds.begin(), kinds.end());
  std::set<std::string> counted;  // count a finding once per run
  for (Finding& f : run.findings) {
    auto same = std::find_if(result.findings.begin(), result.findings.end(),
                             [&](const AggregatedFinding& a) {
                               return a.finding.kind == f.kind &&
                                      a.finding.summary == f.summary;
                             });
    std::string key = absl::StrCat(to_string(f.kind), f.summary);
    if (same == result.findings.end()) {
      result.findings.push_back({std::move(f), 1});
    } else if (counted.insert(key).second) {
      ++same->runs;
    }
    counted.insert(key);
  }
}

CaseResult run_case(const CaseSpec& spec, const Expectation* expectation,
                    const RunOptions& options) {
  const auto start = Clock::now();
  CaseResult result;
  result.family = spec.family;
  result.subject = spec.subject;
  result.scenario = spec.scenario;
  result.source = spec.source;
  result.mode = options.request.mode;
  const bool verify =
      expectation != nullptr &&
      must_verify(*expectation, result.mode, options.request.strategy);
  result.expected = expectation ? describe_expected(*expectation, verify)
                                : "(no expectation)";
  if (const std::optional<sched::StrategyKind> kind =
          sched::strategy_kind(options.request.strategy);
      kind && sched::searches_one_program(*kind)) {
    result.preemption_bound = options.request.preemptions;
  }
  if (result.mode == Mode::kControlled) {
    result.strategy = options.request.strategy;
    result.budget = options.request.budget;
  }
  if (expectation) {
    result.expected_kinds.emplace();
    for (FindingKind k : expectation->catches) result.expected_kinds->insert(k);
  }
  // The runs share children: one child makes them all, one after the other,
  // and a child that dies (a crash, a hang) is replaced for the runs after
  // the one it died in.
  // A run whose child was killed from outside is made once more, in a new
  // child: its first try is dropped, and the retry's log says why.
  std::string retry_line;
  for (int run = 0; run < options.runs;) {
    std::vector<RunObservation> batch =
        run_batch_in_child(spec, options, run, options.runs - run);
    if (!retry_line.empty()) {
      batch.front().log.insert(0, retry_line);
      retry_line.clear();
    }
    const int last = run + static_cast<int>(batch.size()) - 1;
    if (const int sig = batch.back().killed_from_outside; sig != 0) {
      const bool again =
          !result.retried.empty() && result.retried.back().run == last;
      if (again) {
        result.retried.back().ended_again = true;
      } else {
        result.retried.push_back({last,
                                  sigabbrev_np(sig) != nullptr
                                      ? absl::StrCat("SIG", sigabbrev_np(sig))
                                      : absl::StrCat("signal ", sig),
                                  false});
        retry_line =
            absl::StrCat("racelab: ", describe(result.retried.back()), "\n");
        batch.pop_back();
      }
    }
    run += static_cast<int>(batch.size());
    for (RunObservation& r : batch) add_run(result, std::move(r));
  }
  result.mismatch =
      expectation ? judge(*expectation, verify, result.kinds, result.verified)
                  : "no expectation for this case in the table";
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace racelab
