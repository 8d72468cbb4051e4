// The child side of a case run: executes one run and reports its findings as
// JSON lines on file descriptor 3 (the result channel).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "racelab/runner.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/sched/strategy.h"
#include "racelab/sync.h"
#include "result_channel.h"

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
  syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}

void on_self_deadlock(const char* message) {
  write_line(event_line("deadlock", message));
  exit_now();
}

// Ends a run that does not finish in time: the threads are stuck, so the
// process reports and exits instead of waiting for them. A run that already
// raced and then hangs (a corrupted container looping forever) gets a shorter
// limit: the race is the finding, the hang only its consequence.
std::atomic<std::int64_t> g_last_heartbeat_ns{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class Watchdog {
 public:
  static constexpr int kAfterReportMs = 2000;
  static constexpr int kReportMs = 3000;

  // `hang_after_report`: stress mode, where a race can corrupt a container
  // into an endless loop. (Controlled mode runs serially; its reports are
  // slow to print but do not hang it, and its limit is per schedule.)
  Watchdog(int timeout_ms, bool hang_after_report)
      : start_(record_start()), thread_([this, timeout_ms, hang_after_report] {
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
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> first_report;
    std::unique_lock lock(mu_);
    while (!done_) {
      const auto now = Clock::now();
      if (hang_after_report && !first_report && tsan_reports_seen() > 0)
        first_report = now;
      std::string message;
      if (now_ns() - g_last_heartbeat_ns.load() >
          std::int64_t{timeout_ms} * 1'000'000) {
        message = absl::StrCat("the run did not finish within ", timeout_ms,
                               " ms: probable deadlock or livelock");
      } else if (first_report &&
                 now - *first_report >
                     std::chrono::milliseconds(kAfterReportMs)) {
        message =
            absl::StrCat("the run hung for ", kAfterReportMs,
                         " ms after a ThreadSanitizer report (a container "
                         "corrupted by the race loops forever)");
      }
      if (!message.empty()) {
        // Reporting needs the allocator and the symbolizer, which a thread
        // stuck inside the sanitizer runtime may hold. A raw alarm first: if
        // the report cannot be written within kReportMs, SIGALRM ends the
        // process and the parent records the timeout itself.
        syscall(SYS_alarm, kReportMs / 1000);
        RunObservation observation;
        observation.findings = take_tsan_findings();
        observation.findings.push_back(
            {FindingKind::kTimeout, "timeout", message, {}, std::nullopt, {}});
        write_line(run_done_line(observation));
        exit_now();
      }
      cv_.wait_for(lock, std::chrono::milliseconds(100));
    }
  }

  static bool record_start() {
    g_last_heartbeat_ns.store(now_ns());
    return true;
  }

  bool start_;  // the clock starts before the watching thread does
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

void heartbeat() {
  const std::int64_t now = now_ns();
  g_last_heartbeat_ns.store(now);
  // Tell the parent, at most once a second, that the run is alive.
  static std::atomic<std::int64_t> last_told{now};
  if (now - last_told.load() > 1'000'000'000) {
    last_told.store(now);
    write_line(R"({"event":"progress"})");
  }
}

int child_main(const Registry& registry, const std::string& subject,
               const std::string& scenario, const RunOptions& options,
               int run_index) {
  const CaseSpec* spec = registry.find_case(subject, scenario);
  if (spec == nullptr) {
    write_line(event_line("error",
                          absl::StrCat("no case ", subject, " x ", scenario)));
    return 2;
  }
  // Die with the parent: a run that outlives a killed harness must not spin
  // on forever as an orphan.
  syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  set_sanitizer_notice_fd(kResultFd);
  install_asan_death_callback();
  set_self_deadlock_handler(&on_self_deadlock);

  // Each run has its own seed, derived from the case seed and the run number.
  const std::uint64_t run_seed =
      options.seed +
      0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(run_index);
  RunRequest request = options.request;
  request.mode = options.mode;
  request.seed = run_seed;
  request.run_index = run_index;
  request.jitter = options.jitter;
  request.pause_us = options.pause_us;
  request.oracles = options.oracles;
  RunObservation observation;
  try {
    Watchdog watchdog(options.effective_run_timeout_ms(), options.mode == Mode::kStress);
    observation = spec->run(request);
  } catch (const sched::ScheduleError& e) {
    // A schedule that cannot be replayed: the input was wrong, not the subject.
    write_line(event_line("error", e.what()));
    return 2;
  } catch (const InputError& e) {
    write_line(event_line("error", e.what()));  // a program that does not parse
    return 2;
  } catch (const std::exception& e) {
    // Anything else escaped the subject or a check of the state it left.
    observation.findings.push_back(
        {FindingKind::kCrash,
         "crash",
         absl::StrCat("the run threw an exception: ", e.what()),
         {},
         std::nullopt,
         {}});
  }
  for (Finding& f : take_tsan_findings())
    observation.findings.push_back(std::move(f));
  write_line(run_done_line(observation));
  return 0;
}

}  // namespace racelab
