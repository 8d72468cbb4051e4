// The child side of a case run: executes the request's runs one after the
// other and reports each one's findings as JSON lines on file descriptor 3
// (the result channel).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "racelab/child_request.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/session.h"
#include "racelab/raw_syscall.h"
#include "racelab/result_channel.h"
#include "racelab/runner.h"
#include "racelab/symbol_cache.h"
#include "racelab/sync.h"
#include "stall_evidence.h"
#include "thread_stacks.h"

namespace racelab {
namespace {

constexpr int kResultFd = 3;

void write_line(const std::string& line) {
  std::string text = line + "\n";
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(kResultFd, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

// Ends the process at once, from any thread, without the sanitizers'
// exit-time work (TSan's at-exit sleep would let the stuck threads run on).
[[noreturn]] void exit_now() {
  raw_syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}

void on_self_deadlock(const char* message) {
  write_line(event_line("deadlock", message));
  exit_now();
}

// Ends a run that stops making progress: the threads are stuck, so the
// process reports and exits instead of waiting for them. "Stuck" means that
// the progress counter (racelab/internal/progress.h: operations, iterator
// steps, scheduling decisions) stood still for the whole limit, measured twice:
// in wall time, and in the watchdog's own ticks, each of which needs the
// process to have been given the CPU; and that there is evidence of a hang
// (stall_evidence.h): every other thread asleep in the kernel at the limit's
// worth of looks, or the limit's worth of CPU time spent. Threads that are
// runnable but do not get the CPU are starved, not stuck: a machine so busy
// that the process hardly runs delays the verdict; it never makes a slow run
// a hang. A run that already
// raced and then stops progressing (a corrupted container looping forever)
// gets a shorter limit: the race is the finding, the hang its consequence.
// That limit cannot change a verdict: a fixed store that raced is already a
// mismatch, and every row that catches a bug allows `timeout`
// (subjects/subject_catalog.cc).
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class Watchdog {
 public:
  static constexpr int kTickMs = 100;
  static constexpr int kAfterReportMs = 500;
  static constexpr int kReportMs = 500;
  static constexpr std::int64_t kTellEveryNs = 1'000'000'000;
  // One symbol lookup counts as progress for this long at most: a
  // symbolizer that never answers is a hang again.
  static constexpr std::int64_t kLookupNs = 30'000'000'000;

  // `hang_after_report`: stress mode, where a race can corrupt a container
  // into an endless loop. (Controlled mode runs serially; its reports are
  // slow to print but do not hang it.)
  Watchdog(int timeout_ms, bool hang_after_report)
      : thread_([this, timeout_ms, hang_after_report] {
          watch(timeout_ms, hang_after_report);
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  void watch(int timeout_ms, bool hang_after_report) {
    std::uint64_t seen = progress_steps();
    std::int64_t still_since = now_ns(), last_told = still_since;
    std::size_t lookups_seen = symbolizer_activity().lookups;
    std::int64_t lookup_since = still_since;
    int still_ticks = 0;
    bool reported = false;
    const pid_t self = static_cast<pid_t>(raw_syscall(SYS_gettid));
    StallEvidence evidence;
    evidence.restart(process_cpu_ns());
    std::unique_lock lock(mu_);
    while (!done_) {
      cv_.wait_for(lock, std::chrono::milliseconds(kTickMs));
      if (done_) break;
      const std::int64_t now = now_ns();
      const std::uint64_t steps = progress_steps();
      // A report being symbolized (a crash's, say) is progress too.
      const SymbolizerActivity symbols = symbolizer_activity();
      bool symbolizing = symbols.lookups != lookups_seen;
      if (symbolizing) {
        lookups_seen = symbols.lookups;
        lookup_since = now;
      }
      symbolizing =
          symbolizing || (symbols.busy && now - lookup_since < kLookupNs);
      if (steps != seen || symbolizing) {
        seen = steps;
        still_since = now;
        still_ticks = 0;
        evidence.restart(process_cpu_ns());
        // Tell the parent, at most once a second, that the run is alive.
        if (now - last_told > kTellEveryNs) {
          last_told = now;
          write_line(R"({"event":"progress"})");
        }
        continue;
      }
      ++still_ticks;
      evidence.look(some_thread_awake(self));
      // After a report the limit is shorter; the clock restarts at the report
      // so that the report's own (slow) symbolization is not held against it.
      if (hang_after_report && !reported && tsan_reports_seen() > 0) {
        reported = true;
        still_since = now;
        still_ticks = 0;
        evidence.restart(process_cpu_ns());
      }
      const int limit_ms = reported ? kAfterReportMs : timeout_ms;
      if (now - still_since < std::int64_t{limit_ms} * 1'000'000 ||
          still_ticks * kTickMs < limit_ms) {
        continue;
      }
      const Stall stall = evidence.judge(process_cpu_ns(), limit_ms, kTickMs);
      if (stall == Stall::kStarved) {
        // Waiting for the CPU: the parent's silence limit must not run out
        // on a run that is only slow.
        if (now - last_told > kTellEveryNs) {
          last_told = now;
          write_line(R"({"event":"starved"})");
        }
        continue;
      }
      const std::string message =
          reported ? absl::StrCat("the run made no progress for ", limit_ms,
                                  " ms after a ThreadSanitizer report (a "
                                  "container corrupted by the race loops "
                                  "forever)")
                   : absl::StrCat(
                         "the run made no progress (no operation "
                         "finished, no scheduling decision) with ",
                         describe(stall, limit_ms), ": probable ",
                         stall == Stall::kBlocked ? "deadlock" : "livelock",
                         ". Its threads: ",
                         absl::StrReplaceAll(absl::StripTrailingAsciiWhitespace(
                                                 describe_threads(getpid())),
                                             {{"\n", "; "}}));
      // Reporting needs the allocator and the symbolizer, which a thread
      // stuck inside the sanitizer runtime may hold. A raw alarm first: if
      // the report cannot be written within kReportMs, SIGALRM ends the
      // process and the parent records the timeout itself.
      // (Should the alarm cut a report that was only slow, the verdict is
      // the same: the parent has the kinds of the run's TSan reports from
      // their notices, and records the timeout.)
      itimerval alarm{};
      alarm.it_value.tv_usec = kReportMs * 1000;
      raw_syscall(SYS_setitimer, ITIMER_REAL, &alarm, nullptr);
      RunObservation observation;
      observation.findings = take_tsan_findings();
      observation.findings.push_back({FindingKind::kTimeout,
                                      Oracle::kTimeout,
                                      message,
                                      {},
                                      std::nullopt,
                                      {}});
      write_line(run_done_line(observation));
      exit_now();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

int child_main(const Registry& registry, const ChildRequest& child) {
  const CaseSpec* spec = registry.find_case(child.subject, child.scenario);
  if (spec == nullptr) {
    write_line(event_line("error", absl::StrCat("no case ", child.subject,
                                                " x ", child.scenario)));
    return 2;
  }
  // The death signal was set before exec (runner.cc, exec_child): a run never
  // outlives the harness that started it.
  set_sanitizer_notice_fd(kResultFd);
  set_source_roots(registry.source_roots());
  install_asan_death_callback();
  set_self_deadlock_handler(&on_self_deadlock);
  // Sleeps as long as asked: a slow reader's 50 us pause, a nudge's 20 us
  // step, would otherwise each last the kernel's default 50 us slack longer.
  // The threads a run starts inherit it.
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  // Controlled runs on OS threads keep all of a run's threads on one CPU
  // (scheduler_core.h, PinnedToOneCpu). The process binds itself once, here,
  // before it starts any thread, to the CPU the system gave it when it
  // started; its runs then change no affinity. (Binding and unbinding around
  // every run left a child killed with its parent, by the death signal,
  // stuck inside that system call now and then.)
  // Stress runs stay on every CPU: their races need real parallelism.
  if (child.run.mode == Mode::kControlled &&
      child.run.threads == sched::Substrate::kOsThreads) {
    sched::pin_process_to_one_cpu();
  }

  for (int i = 0; i < child.runs; ++i) {
    const int run_index = child.run.run_index + i;
    // Each run's log starts at its marker; its result line names it.
    const std::string marker = run_log_marker(run_index);
    (void)!::write(STDERR_FILENO, marker.data(), marker.size());
    write_line(absl::StrCat(R"({"event":"run_start","run":)", run_index, "}"));
    // Each run has its own seed, derived from the case seed and the run
    // number, and its own state, gone with it.
    Session session;
    RunRequest request = child.run;
    request.run_index = run_index;
    request.seed = child.run.seed + 0x9e3779b97f4a7c15ULL *
                                        static_cast<std::uint64_t>(run_index);
    RunObservation observation;
    try {
      Watchdog watchdog(child.run_timeout_ms, request.mode == Mode::kStress);
      observation = spec->run(request);
    } catch (const sched::ScheduleError& e) {
      // A schedule that cannot be replayed: the input was wrong, not the
      // subject.
      write_line(event_line("error", e.what()));
      return 2;
    } catch (const InputError& e) {
      write_line(
          event_line("error", e.what()));  // a program that does not parse
      return 2;
    } catch (const std::exception& e) {
      // Anything else escaped the subject or a check of the state it left.
      observation.findings.push_back(
          {FindingKind::kCrash,
           Oracle::kCrash,
           absl::StrCat("the run threw an exception: ", e.what()),
           {},
           std::nullopt,
           {}});
    }
    for (Finding& f : take_tsan_findings())
      observation.findings.push_back(std::move(f));
    write_line(run_done_line(observation));
  }
  return 0;
}

}  // namespace racelab
