// The non-template parts of the store-implementer kit (racelab/kit.h):
// isolation of a check, sanitizer findings, schedule files and the failure
// message.
#include "racelab/kit.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/input_error.h"
#include "racelab/isolation.h"
#include "racelab/process_output.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/saved_schedule.h"
#include "symbol_names.h"

namespace racelab {
namespace kit_internal {
namespace {

// How the child of an isolated check reports an InputError (a recorded
// program that does not parse): the parent throws it again.
constexpr const char* kInputErrorTag = "racelab-input-error ";

std::string safe_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

// The finding of an AddressSanitizer report that ended the child, from its
// stderr ("==1==ERROR: AddressSanitizer: heap-use-after-free on ..." and
// "SUMMARY: AddressSanitizer: heap-use-after-free file:line in function").
std::optional<Finding> asan_death(const std::string& text) {
  constexpr std::string_view kError = "ERROR: AddressSanitizer: ";
  const std::size_t at = text.find(kError);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + kError.size();
  const std::string what =
      text.substr(start, text.find_first_of(" \n", start) - start);
  const bool freed = what.find("use-after-free") != std::string::npos ||
                     what.find("use-after-poison") != std::string::npos;
  std::string summary = absl::StrCat("AddressSanitizer: ", what);
  constexpr std::string_view kSummary = "SUMMARY: AddressSanitizer: ";
  const std::size_t line = text.find(kSummary);
  if (line != std::string::npos) {
    const std::size_t from = line + kSummary.size();
    summary = absl::StrCat("AddressSanitizer: ",
                           text.substr(from, text.find('\n', from) - from));
  }
  return Finding{freed ? FindingKind::kUseAfterFree : FindingKind::kCrash,
                 Oracle::kAsan,
                 summary + " (the check then died)",
                 tail(text, 4000),
                 std::nullopt,
                 {}};
}

}  // namespace

std::vector<Finding> take_sanitizer_findings(bool enabled) {
  std::vector<Finding> findings = take_tsan_findings();
  if (!enabled) findings.clear();
  return findings;
}

CheckResult finish_check(const std::function<CheckResult()>& check,
                         const CheckOptions& options, const std::string& store,
                         const std::string& scenario,
                         const std::string& replayed) {
  const bool controlled = options.mode == Mode::kControlled;
  CheckResult result;
  if (!options.isolate) {
    result = check();
  } else {
    isolation::ChildOptions child_options;
    child_options.hang_seconds = std::max(1, options.hang_seconds);
    child_options.watch_progress = true;
    child_options.what = "racelab::check_store";
    const isolation::ChildOutcome child = isolation::run_in_child(
        [&] {
          try {
            return isolation::encode_observation(check());
          } catch (const InputError& e) {
            return absl::StrCat(kInputErrorTag, e.what());
          } catch (const std::exception& e) {
            CheckResult thrown;
            thrown.findings.push_back(
                {FindingKind::kCrash,
                 Oracle::kCrash,
                 absl::StrCat("the check threw an uncaught exception: ",
                              e.what()),
                 "",
                 std::nullopt,
                 {}});
            return isolation::encode_observation(thrown);
          }
        },
        child_options);
    // What the store and the sanitizers printed, as an in-process check
    // would have shown it.
    if (!child.child_stderr.empty()) {
      std::fwrite(child.child_stderr.data(), 1, child.child_stderr.size(),
                  stderr);
      std::fflush(stderr);
    }
    if (child.end == isolation::ChildEnd::kResult) {
      if (child.result.starts_with(kInputErrorTag)) {
        throw InputError(child.result.substr(std::strlen(kInputErrorTag)));
      }
      result = isolation::decode_observation(child.result);
    } else {
      const bool hung = child.end == isolation::ChildEnd::kHang;
      result.findings.push_back(
          {hung ? FindingKind::kTimeout : FindingKind::kCrash,
           hung ? Oracle::kTimeout : Oracle::kCrash,
           child.summary(absl::StrCat("the check of ", store, " x ", scenario),
                         child_options.hang_seconds),
           tail(child.child_stderr, 4000),
           std::nullopt,
           {}});
      if (std::optional<Finding> asan = asan_death(child.child_stderr)) {
        result.findings.insert(result.findings.begin(), std::move(*asan));
      }
      const int in_flight = std::max(child.schedule, 0);
      if (controlled) {
        result.schedules = in_flight + 1;
        result.first_failing = in_flight;
        result.schedule.program = child.program;
        result.schedule.decisions = child.decisions;
      } else {
        result.runs = in_flight + 1;
      }
    }
    result.log = tail(child.child_stderr, std::size_t{1} << 20);
  }
  if (!replayed.empty()) {
    result.schedule_file = replayed;
  } else if (controlled && !result.clean()) {
    result.schedule_file = save_schedule(
        schedule_path(options, store, scenario), store, scenario, options,
        options.seed +
            static_cast<std::uint64_t>(std::max(result.first_failing, 0)),
        result.schedule.program, result.schedule.decisions);
  }
  compose_message(result, store, scenario, options);
  if (!replayed.empty()) {
    result.message += result.replay_diverged
                          ? "replay diverged from the recorded decisions (the "
                            "store's scheduling points differ); the fallback "
                            "ran the current thread on\n"
                          : "replay followed the recorded decisions exactly\n";
  }
  return result;
}

std::string schedule_path(const CheckOptions& options, std::string_view store,
                          std::string_view scenario) {
  std::string dir = options.schedule_dir;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = (tmp != nullptr && *tmp != '\0') ? tmp : "/tmp";
  }
  return absl::StrCat(dir, "/racelab-", safe_name(store), "-",
                      safe_name(scenario), ".schedule");
}

std::string save_schedule(const std::string& path, const std::string& store,
                          const std::string& scenario,
                          const CheckOptions& options,
                          std::uint64_t program_seed,
                          const std::vector<std::string>& program_lines,
                          const std::vector<int>& decisions) {
  if (program_lines.size() < 3) return "";
  RecordedSchedule schedule;
  schedule.program = program_lines;
  schedule.decisions = decisions;
  try {
    racelab::save_schedule(
        path, schedule_file_for(
                  schedule, {store, scenario, options.strategy, program_seed}));
  } catch (const std::exception&) {
    return "";
  }
  return path;
}

sched::ScheduleFile read_schedule(const std::string& path,
                                  std::vector<std::string>* program_lines) {
  sched::ScheduleFile file = load_schedule(path).file;
  *program_lines = file.program_lines();
  return file;
}

RunRequest controlled_request(const CheckOptions& options) {
  RunRequest request;
  request.mode = Mode::kControlled;
  request.seed = options.seed;
  request.oracles = options.oracles;
  request.strategy = options.strategy;
  request.threads = options.threads;
  request.depth = options.depth;
  request.preemptions = options.preemptions;
  request.budget = options.budget;
  request.shrink = options.shrink;
  // TSan reports each racing pair once per process: the shrinking reruns may
  // not see what the first failing run saw.
  request.keep_first_kinds = true;
  return request;
}

std::string other_test_text(const std::string& path,
                            const sched::ScheduleFile& file,
                            const std::string& store,
                            const std::string& scenario) {
  return absl::StrCat(
      kReplayVariable, "=", path,
      ": the file belongs to another test: it is a schedule of ", file.subject,
      " x ", file.scenario, ", this test checks ", store, " x ", scenario);
}

void compose_message(CheckResult& result, const std::string& store,
                     const std::string& scenario, const CheckOptions& options) {
  std::ostringstream out;
  const bool controlled = options.mode == Mode::kControlled;
  out << store << " x " << scenario << " (" << to_string(options.mode)
      << ", oracles " << to_string(options.oracles) << "): ";
  if (result.clean()) {
    if (controlled) {
      out << "clean over " << result.schedules << " schedules ("
          << options.strategy << ", seed " << options.seed << ")\n";
    } else {
      out << "clean over " << result.runs << " runs\n";
    }
    for (const std::string& warning : result.warnings) {
      out << "warning: " << warning << "\n";
    }
    result.message = out.str();
    return;
  }
  if (controlled) {
    out << "FAILED at schedule " << result.first_failing + 1 << " of "
        << result.schedules << "\n";
  } else {
    out << "FAILED in run " << result.runs << "\n";
  }
  out << format_findings(result.findings);
  for (const Finding& f : result.findings) {
    if ((f.oracle == Oracle::kLinearizability ||
         f.oracle == Oracle::kDeadlock) &&
        !f.detail.empty()) {
      out << "  " << f.detail << "\n";
    }
  }
  if (!result.schedule.trace.rows.empty()) {
    out << "minimal failing schedule (" << result.schedule.preemptions
        << " preemptions):\n"
        << sched::format_trace(result.schedule.trace);
  }
  if (!result.schedule_file.empty()) {
    out << "schedule saved to " << result.schedule_file
        << " (rerun it with racelab::replay_store)\n";
  } else if (controlled) {
    out << "(the schedule could not be saved)\n";
  }
  result.message = out.str();
}

}  // namespace kit_internal

namespace {
KitListener g_kit_listener = nullptr;
}  // namespace

std::string replay_request() {
  const char* file = std::getenv(kReplayVariable);
  return file == nullptr ? "" : file;
}

void set_kit_listener(KitListener listener) { g_kit_listener = listener; }

void notify_kit_test(const KitTestRecord& record) {
  if (g_kit_listener == nullptr) return;
  try {
    g_kit_listener(record);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "racelab: the kit listener failed: %s\n", e.what());
  }
}

std::string format_findings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    absl::StrAppend(&out, "  [", to_string(f.kind), "/", to_string(f.oracle),
                    "] ", f.summary, "\n");
    if (f.subject_frame && !f.subject_frame->function.empty()) {
      absl::StrAppend(&out, "      at ",
                      readable_symbol(f.subject_frame->function), " ",
                      f.subject_frame->file, ":", f.subject_frame->line, "\n");
    }
  }
  return out;
}

}  // namespace racelab
