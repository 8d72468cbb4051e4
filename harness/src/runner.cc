// The parent side of case runs: spawn, collect, time out, aggregate, judge.
#include "racelab/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/json.h"
#include "racelab/sanitizer_capture.h"
#include "racelab_sanitizer_options.h"

extern char** environ;

namespace racelab {
namespace {

constexpr size_t kMaxLog = 64 * 1024;  // a child's stderr kept for the report
constexpr size_t kMaxResults =
    256ull << 20;  // its result channel (traces can be long)
constexpr int kGraceMs = 2000;
// How long past the child's own watchdog the parent waits before killing it.
constexpr int kParentExtraMs = 3000;

using Clock = std::chrono::steady_clock;

// The child's environment: ours, with racelab's sanitizer options in front of
// the user's own (later options win, so the user can override ours).
std::vector<std::string> child_environment(const RunOptions& options) {
  const Oracles& oracles = options.oracles;
  std::vector<std::string> env;
  const char* tsan = std::getenv("TSAN_OPTIONS");
  const char* asan = std::getenv("ASAN_OPTIONS");
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "TSAN_OPTIONS=", 13) == 0 ||
        std::strncmp(*e, "ASAN_OPTIONS=", 13) == 0) {
      continue;
    }
    env.emplace_back(*e);
  }
  // With the tsan oracle off, TSan still instruments but reports nothing.
  env.push_back(
      absl::StrCat("TSAN_OPTIONS=", RACELAB_TSAN_OPTIONS, ":", tsan ? tsan : "",
                   oracles.tsan ? "" : ":report_bugs=0",
                   // Many schedules share one process: report a race
                   // in every schedule that has it, not only the first.
                   options.mode == Mode::kControlled
                       ? ":suppress_equal_stacks=0:suppress_equal_addresses=0"
                       : ""));
  env.push_back(absl::StrCat("ASAN_OPTIONS=", RACELAB_ASAN_OPTIONS, ":",
                             asan ? asan : ""));
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

// Reads whatever is available on `fd` into `out`; false at end of file.
bool drain(int fd, std::string& out, size_t cap) {
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n <= 0) return false;
  if (out.size() < cap)
    out.append(buf, std::min(static_cast<size_t>(n), cap - out.size()));
  return true;
}

FindingKind kind_of_asan(std::string_view description) {
  if (description.find("use-after-free") != std::string_view::npos ||
      description.find("use-after-poison") != std::string_view::npos) {
    return FindingKind::kUseAfterFree;
  }
  return FindingKind::kCrash;
}

}  // namespace

std::string CaseResult::observed() const {
  if (kinds.empty()) return "clean";
  return absl::StrJoin(kinds, ",", [](std::string* out, FindingKind k) {
    absl::StrAppend(out, to_string(k));
  });
}

RunRecord run_in_child(const CaseSpec& spec, const RunOptions& options,
                       int run_index) {
  const std::string case_name =
      absl::StrCat(spec.subject, " x ", spec.scenario, " (",
                   to_string(options.mode), " run ", run_index, ")");
  int result_pipe[2], log_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0 || pipe2(log_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  std::vector<std::string> args = {
      options.self_exe,
      "__child",
      "--subject",
      spec.subject,
      "--scenario",
      spec.scenario,
      "--mode",
      std::string(to_string(options.mode)),
      "--seed",
      std::to_string(options.seed),
      "--run",
      std::to_string(run_index),
      "--pause-us",
      std::to_string(options.pause_us),
      "--run-timeout-ms",
      std::to_string(options.effective_run_timeout_ms())};
  if (options.jitter) args.push_back("--jitter");
  if (options.mode == Mode::kControlled) {
    const RunRequest& r = options.request;
    for (std::string a :
         {std::string("--strategy"), r.strategy, std::string("--depth"),
          std::to_string(r.depth), std::string("--preemptions"),
          std::to_string(r.preemptions), std::string("--budget"),
          std::to_string(r.budget)}) {
      args.push_back(std::move(a));
    }
    if (!r.shrink) args.push_back("--no-shrink");
    if (!options.replay_file.empty()) {
      args.push_back("--replay");
      args.push_back(options.replay_file);
    }
  }
  args.push_back("--oracles");
  args.push_back(format_oracles(options.oracles));
  std::vector<std::string> env = child_environment(options);
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, log_pipe[1], 2);
  posix_spawn_file_actions_adddup2(&actions, result_pipe[1], 3);
  pid_t pid = -1;
  int rc =
      posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(result_pipe[1]);
  ::close(log_pipe[1]);
  if (rc != 0) {
    ::close(result_pipe[0]);
    ::close(log_pipe[0]);
    throw std::runtime_error(absl::StrCat("cannot start ", options.self_exe,
                                          ": ", std::strerror(rc)));
  }

  // Collect until both pipes close or the deadline passes.
  std::string results, log;
  // Any line from the child (controlled mode writes one per second as it
  // goes) pushes the deadline back: the limit is on silence, not on work.
  const auto limit = std::chrono::milliseconds(
      options.effective_run_timeout_ms() + kParentExtraMs);
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
      std::string& sink = p.fd == result_pipe[0] ? results : log;
      if (p.fd == result_pipe[0]) deadline = Clock::now() + limit;
      if (!drain(p.fd, sink, p.fd == result_pipe[0] ? kMaxResults : kMaxLog)) {
        p.fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  if (timed_out) {
    ::kill(pid, SIGTERM);
    const auto grace_end = Clock::now() + std::chrono::milliseconds(kGraceMs);
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() > grace_end) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        break;
      }
      ::usleep(10000);
    }
  } else {
    ::waitpid(pid, &status, 0);
  }
  ::close(result_pipe[0]);
  ::close(log_pipe[0]);

  // Interpret the result channel.
  RunRecord record;
  record.log = std::move(log);
  bool done = false;
  std::vector<Finding> notices;  // from the raw hooks, used when the run died
  bool died_of_asan_report = false;
  std::istringstream lines(results);
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j =
        nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("event")) continue;
    try {
      const std::string event = j.value("event", "");
      if (event == "run_done") {
        done = true;
        record.schedules = j.value("schedules", 0);
        record.first_failing = j.value("first_failing", -1);
        if (j.contains("schedule")) {
          const nlohmann::json& s = j.at("schedule");
          record.schedule = {s.at("program").get<std::vector<std::string>>(),
                             s.at("decisions").get<std::vector<int>>(),
                             s.at("preemptions").get<int>()};
          const nlohmann::json& t = j.at("trace");
          record.trace_threads = t.at("threads").get<int>();
          record.trace_table = t.at("table").get<std::string>();
          for (const nlohmann::json& row : t.at("rows")) {
            record.trace.push_back({row.at("step").get<int>(),
                                    row.at("thread").get<int>(),
                                    row.at("kind").get<std::string>(),
                                    row.at("text").get<std::string>()});
          }
        }
        for (const nlohmann::json& f :
             j.value("findings", nlohmann::json::array())) {
          record.findings.push_back(finding_from_json(f));
        }
      } else if (event == "tsan_report") {
        std::string kind = j.value("kind", "");
        notices.push_back({tsan_report_kind(kind),
                           "tsan",
                           absl::StrCat("ThreadSanitizer: ", kind,
                                        " (the run then died; see the log)"),
                           {},
                           std::nullopt,
                           {}});
      } else if (event == "asan_report") {
        std::string kind = j.value("kind", "");
        died_of_asan_report = true;
        notices.push_back({kind_of_asan(kind),
                           "asan",
                           absl::StrCat("AddressSanitizer: ", kind, " at ",
                                        j.value("frame", "")),
                           {},
                           std::nullopt,
                           {}});
      } else if (event == "deadlock") {
        record.findings.push_back({FindingKind::kDeadlock,
                                   "deadlock",
                                   j.value("message", ""),
                                   {},
                                   std::nullopt,
                                   {}});
        done = true;
      } else if (event == "error") {
        throw InputError(absl::StrCat(case_name, ": ", j.value("message", "")));
      }
    } catch (const nlohmann::json::exception& e) {
      // A line the child wrote while dying (or a subject that scribbled over
      // the harness's memory): evidence of a crash, not a harness failure.
      notices.push_back({FindingKind::kCrash,
                         "crash",
                         absl::StrCat("the run wrote a malformed result line (",
                                      e.what(), ")"),
                         line.substr(0, 2000),
                         std::nullopt,
                         {}});
    }
  }
  if (done) return record;
  for (Finding& f : notices) record.findings.push_back(std::move(f));
  if (timed_out) {
    record.findings.push_back(
        {FindingKind::kTimeout,
         "timeout",
         absl::StrCat("the run did not finish within ",
                      options.effective_run_timeout_ms() + kParentExtraMs,
                      " ms and was killed: probable deadlock or hang"),
         {},
         std::nullopt,
         {}});
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    // The child's watchdog arms an alarm before it reports; the alarm firing
    // means the run hung and even the report could not be written.
    record.findings.push_back(
        {FindingKind::kTimeout,
         "timeout",
         "the run hung, and so did its watchdog's report (a thread stuck "
         "inside "
         "the sanitizer runtime): probable deadlock or livelock",
         {},
         std::nullopt,
         {}});
  } else if (!died_of_asan_report) {
    // A death after TSan reports is a real crash (TSan does not halt on its
    // reports); an ASan report ends the process by design and is the finding.
    record.findings.push_back(
        {FindingKind::kCrash,
         "crash",
         absl::StrCat("the run ", describe_status(status), " before finishing"),
         {},
         std::nullopt,
         {}});
  }
  // The end of the log, from the start of a line.
  std::size_t tail = record.log.size() > 8192 ? record.log.size() - 8192 : 0;
  if (tail > 0) {
    const std::size_t line = record.log.find('\n', tail);
    tail = line == std::string::npos ? tail : line + 1;
  }
  for (Finding& f : record.findings) {
    if (f.detail.empty()) f.detail = record.log.substr(tail);
  }
  return record;
}

CaseResult run_case(const CaseSpec& spec, const Expectation* expectation,
                    const RunOptions& options) {
  const auto start = Clock::now();
  CaseResult result;
  result.family = spec.family;
  result.subject = spec.subject;
  result.scenario = spec.scenario;
  result.mode = options.mode;
  result.expected =
      expectation ? describe_expected(*expectation) : "(no expectation)";
  std::set<FindingKind> kinds;
  for (int run = 0; run < options.runs; ++run) {
    RunRecord record = run_in_child(spec, options, run);
    ++result.runs;
    result.schedules += record.schedules;
    if (result.trace.empty() && !record.trace.empty() &&
        !record.findings.empty()) {
      result.first_failing = record.first_failing;
      result.schedule = record.schedule;
      result.trace_threads = record.trace_threads;
      result.trace = record.trace;
      result.trace_table = record.trace_table;
    }
    std::set<FindingKind> run_kinds;
    for (const Finding& f : record.findings) run_kinds.insert(f.kind);
    std::string outcome = run_kinds.empty() ? "clean" : "";
    for (FindingKind k : run_kinds)
      absl::StrAppend(&outcome, outcome.empty() ? "" : "+", to_string(k));
    ++result.histogram[outcome];
    if (record.findings.empty()) continue;
    ++result.runs_with_finding;
    if (result.first_failure_log.empty()) result.first_failure_log = record.log;
    kinds.insert(run_kinds.begin(), run_kinds.end());
    std::set<std::string> counted;  // count a finding once per run
    for (Finding& f : record.findings) {
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
  result.kinds.assign(kinds.begin(), kinds.end());
  result.mismatch = expectation ? judge(*expectation, result.kinds)
                                : "no expectation for this case in the table";
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace racelab
