// The non-template parts of the store-implementer kit (racelab/kit.h):
// isolation of a check, sanitizer findings, schedule files and the failure
// message.
#include "racelab/kit.h"

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/internal/family.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/isolation.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/fiber.h"
#include "racelab/observation_json.h"
#include "racelab/process_output.h"
#include "racelab/saved_schedule.h"
#include "racelab/suppressions.h"
#include "racelab/symbol_names.h"

namespace racelab {
namespace kit_internal {
namespace {

// How the child of an isolated check reports an InputError (a recorded
// program that does not parse): the parent throws it again.
constexpr const char* kInputErrorTag = "racelab-input-error ";

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

// Process-wide: the kit's checks run one at a time (Session), and the
// linearizability check runs on the checking thread after each run.
std::mutex& inconclusive_mutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
Inconclusive& inconclusive() {
  static auto* tally = new Inconclusive;
  return *tally;
}

// TSan's report (on stderr) numbers threads its own way; the kit's "thread
// N" is the logical thread N of the trace. One line that maps them.
std::string tsan_thread_note(const std::vector<Finding>& findings) {
  std::map<int, int> logical_of;  // TSan's tid -> logical thread
  for (const Finding& f : findings) {
    if (f.oracle != Oracle::kTsan) continue;
    for (const Access& a : f.accesses) {
      if (a.tsan_tid >= 0 && a.thread >= 0) logical_of[a.tsan_tid] = a.thread;
    }
  }
  if (logical_of.empty()) return "";
  std::string out =
      "  (threads are numbered as in the trace; ThreadSanitizer's own report "
      "on stderr calls them";
  const char* sep = " ";
  for (const auto& [tid, logical] : logical_of) {
    absl::StrAppend(&out, sep, "T", tid, " = thread ", logical);
    sep = ", ";
  }
  return out + ")\n";
}

// How many TSan findings the suppressions dropped, and why.
std::string suppressed_note(const CheckResult& result) {
  if (result.suppressed == 0) return "";
  std::string out = absl::StrCat("suppressed: ", result.suppressed,
                                 " ThreadSanitizer finding(s), by\n");
  for (const std::string& line : result.suppressions_used) {
    absl::StrAppend(&out, "  ", line, "\n");
  }
  return out;
}

}  // namespace

void note_inconclusive(const std::string& part,
                       const std::string& explanation) {
  std::lock_guard<std::mutex> lock(inconclusive_mutex());
  Inconclusive& tally = inconclusive();
  if (tally.count++ == 0) tally.first = part + explanation;
}

Inconclusive take_inconclusive() {
  std::lock_guard<std::mutex> lock(inconclusive_mutex());
  Inconclusive tally = std::move(inconclusive());
  inconclusive() = {};
  return tally;
}

namespace {

// The suppressions of the check running now, and how often each matched.
// Process-wide like the capture of TSan's reports: one check at a time.
struct ActiveSuppressions {
  std::vector<Suppression> list;
  std::vector<int> hits;
};
ActiveSuppressions& active_suppressions() {
  static auto* active = new ActiveSuppressions;
  return *active;
}

}  // namespace

void begin_check(const CheckOptions& options) {
  take_sanitizer_findings(false);  // reports of earlier checks
  // An oracle switched off costs nothing: TSan prints none of its reports.
  set_tsan_reports_wanted(options.oracles.contains(Oracle::kTsan));
  take_inconclusive();
  ActiveSuppressions& active = active_suppressions();
  active = {};
  if (!options.suppressions.empty()) {
    active.list = load_suppressions(options.suppressions);
    active.hits.assign(active.list.size(), 0);
  }
}

void end_check(CheckResult& result) {
  set_tsan_reports_wanted(true);
  Inconclusive tally = take_inconclusive();
  result.inconclusive_linearizability += tally.count;
  if (result.inconclusive_detail.empty())
    result.inconclusive_detail = std::move(tally.first);
  ActiveSuppressions& active = active_suppressions();
  for (std::size_t i = 0; i < active.list.size(); ++i) {
    if (active.hits[i] == 0) continue;
    const Suppression& s = active.list[i];
    result.suppressed += active.hits[i];
    result.suppressions_used.push_back(
        absl::StrCat(s.type, ":", s.pattern, " (", s.file, ":", s.line, ", ",
                     s.reason, "): ", active.hits[i]));
  }
  active = {};
}

std::vector<Finding> take_sanitizer_findings(bool enabled) {
  std::vector<Finding> findings = take_tsan_findings();
  if (!enabled) findings.clear();
  ActiveSuppressions& active = active_suppressions();
  if (active.list.empty()) return findings;
  std::vector<Finding> kept;
  for (Finding& f : findings) {
    const Suppression* s = matching_suppression(active.list, f);
    if (s == nullptr) {
      kept.push_back(std::move(f));
      continue;
    }
    ++active.hits[static_cast<std::size_t>(s - active.list.data())];
  }
  return kept;
}

namespace {

// Why a fork of this process would not be watched by ThreadSanitizer, or "".
std::string other_threads_note() {
  if (!built_with_tsan()) return "";
  int tasks = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) tasks += e->d_name[0] != '.';
    closedir(dir);
  }
  // This thread and TSan's own background thread.
  const int others = std::max(0, tasks - 2);
  const int fibers = sched::Fiber::live_sanitizer_contexts();
  if (others == 0 && fibers == 0) return "";
  return absl::StrCat(
      "the check ran in this process, not isolated: ThreadSanitizer does not "
      "watch a child forked from a process with other threads (",
      others, " thread(s), ", fibers,
      " fiber(s) of another scheduler alive); a crash of the store would end "
      "this process");
}

// What a finding says, as the message shows it: two findings that say the
// same are one. (Two TSan reports of one race differ only in stack frames
// below the ones shown.)
std::string finding_identity(const Finding& f) {
  return format_findings({f}) +
         (f.oracle == Oracle::kTsan ? std::string() : "\n" + f.detail);
}

// Findings that say the same thing (the same report of several runs, the same
// failed check of several parts) kept once, the first, its summary saying how
// often it was seen.
void merge_duplicates(std::vector<Finding>& findings) {
  std::vector<Finding> kept;
  std::vector<std::string> identities;
  std::vector<int> seen;
  for (Finding& f : findings) {
    std::string identity = finding_identity(f);
    const auto at = std::find(identities.begin(), identities.end(), identity);
    if (at != identities.end()) {
      ++seen[static_cast<std::size_t>(at - identities.begin())];
      continue;
    }
    identities.push_back(std::move(identity));
    seen.push_back(1);
    kept.push_back(std::move(f));
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (seen[i] > 1)
      absl::StrAppend(&kept[i].summary, " (", seen[i], " times)");
  }
  findings = std::move(kept);
}

}  // namespace

CheckResult finish_check(const std::function<CheckResult()>& check,
                         const CheckOptions& options, const std::string& store,
                         const std::string& scenario,
                         const std::string& replayed) {
  const bool controlled = options.mode == Mode::kControlled;
  CheckResult result;
  std::string unsaved;  // why a failing schedule was not saved
  // ThreadSanitizer stops watching a child forked from a process it counts
  // as multi-threaded (its threads or fibers besides this one): such a
  // check runs here, and says so.
  const std::string threaded = other_threads_note();
  if (!options.isolate || !threaded.empty()) {
    result = check();
    if (options.isolate) result.warnings.push_back(threaded);
  } else {
    isolation::ChildOptions child_options;
    child_options.hang_seconds = std::max(1, options.hang_seconds);
    child_options.watch_progress = true;
    child_options.what = "racelab::check_store";
    const isolation::ChildOutcome child = isolation::run_in_child(
        [&] {
          try {
            return encode_observation(check());
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
            return encode_observation(thrown);
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
      try {
        result = decode_observation(child.result);
      } catch (const std::runtime_error& e) {
        // The store scribbled over the child's memory, or racelab's result
        // is cut: a crash of the check, never a pass.
        result.findings.push_back({FindingKind::kCrash,
                                   Oracle::kCrash,
                                   e.what(),
                                   tail(child.child_stderr, 4000),
                                   std::nullopt,
                                   {}});
      }
    } else {
      const bool hung = child.end == isolation::ChildEnd::kHang;
      result.findings.push_back(
          {hung ? FindingKind::kTimeout : FindingKind::kCrash,
           hung ? Oracle::kTimeout : Oracle::kCrash,
           child.summary(absl::StrCat("the check of ", store, " x ", scenario),
                         child_options.hang_seconds),
           child.lock_waits + tail(child.child_stderr, 4000),
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
        if (child.decisions_cut) {
          unsaved = absl::StrCat(
              "the schedule in flight made more than ", child.decisions.size(),
              " decisions, more than the child's channel holds");
        }
      } else {
        result.runs = in_flight + 1;
      }
    }
    result.log = tail(child.child_stderr, std::size_t{1} << 20);
  }
  if (!replayed.empty()) {
    result.schedule_file = replayed;
  } else if (controlled && !result.clean() && unsaved.empty()) {
    result.schedule_file = save_schedule(
        schedule_path(options, store, scenario), store, scenario, options,
        options.seed +
            static_cast<std::uint64_t>(std::max(result.first_failing, 0)),
        result.schedule.program, result.schedule.decisions, &unsaved);
  }
  merge_duplicates(result.findings);
  compose_message(result, store, scenario, options);
  if (controlled && !result.clean() && result.schedule_file.empty()) {
    absl::StrAppend(&result.message, "(the schedule could not be saved: ",
                    unsaved.empty() ? "no schedule was recorded" : unsaved,
                    ")\n");
  }
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
    dir = private_schedule_folder();
    if (dir.empty()) return "";  // nowhere safe: nothing is saved
  }
  return schedule_file_in(dir, {store, scenario});
}

std::string save_schedule(const std::string& path, const std::string& store,
                          const std::string& scenario,
                          const CheckOptions& options,
                          std::uint64_t program_seed,
                          const std::vector<std::string>& program_lines,
                          const std::vector<int>& decisions, std::string* why) {
  if (path.empty()) {
    *why = "no private folder to save it in (set CheckOptions::schedule_dir)";
    return "";
  }
  if (program_lines.size() < 3) {
    *why = "the failing program's lines were not announced";
    return "";
  }
  RecordedSchedule schedule;
  schedule.program = program_lines;
  schedule.decisions = decisions;
  try {
    racelab::save_schedule(
        path, schedule_file_for(
                  schedule, {store, scenario, options.strategy, program_seed}));
  } catch (const std::exception& e) {
    *why = e.what();
    return "";
  }
  return path;
}

sched::ScheduleFile read_schedule(const std::string& path,
                                  std::vector<std::string>* program_lines) {
  LoadedSchedule loaded = load_schedule(path);
  check_program_digest(loaded.file, loaded.lines, path);
  *program_lines = loaded.file.program_lines();
  return std::move(loaded.file);
}

RunRequest controlled_request(const CheckOptions& options) {
  RunRequest request = controlled_request_from(options);
  request.oracles = options.oracles;
  request.threads = options.threads;
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
    if (controlled && result.exhaustive) {
      out << "exhaustive: all " << result.schedules << " schedules "
          << (options.preemptions >= 0
                  ? "within " + std::to_string(options.preemptions) +
                        " preemptions"
                  : std::string("that matter"))
          << " are clean (" << options.strategy << ", seed " << options.seed
          << ")\n";
    } else if (controlled) {
      out << "clean over " << result.schedules << " schedules ("
          << options.strategy << ", seed " << options.seed << ")\n";
    } else {
      out << "clean over " << result.runs << " runs\n";
    }
    if (result.inconclusive_linearizability > 0) {
      out << "inconclusive: " << result.inconclusive_linearizability
          << " linearizability check(s) ran out of steps before deciding, so "
             "those histories are neither clean nor a finding ("
          << result.inconclusive_detail
          << "); partition the model (PartitionedModel) or use fewer "
             "operations per program\n";
    }
    for (const std::string& warning : result.warnings) {
      out << "warning: " << warning << "\n";
    }
    out << suppressed_note(result);
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
  out << tsan_thread_note(result.findings);
  out << suppressed_note(result);
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
        << " (rerun it with racelab::replay_spec)\n";
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

namespace {

// "thread 1", or TSan's own number of a thread the trace does not know.
std::string access_thread(const Access& a) {
  if (a.thread >= 0) return absl::StrCat("thread ", a.thread);
  if (a.tsan_tid >= 0) return absl::StrCat("T", a.tsan_tid);
  return "an unknown thread";
}

// Where an access happened: its first frame in the store's code, else its
// first frame with a name; nullptr when the stack has neither.
const Frame* access_frame(const Access& a) {
  if (const Frame* f = first_subject_frame(a.stack)) return f;
  for (const Frame& f : a.stack) {
    if (!f.function.empty()) return &f;
  }
  return nullptr;
}

}  // namespace

std::string format_findings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    absl::StrAppend(&out, "  [", to_string(f.kind), "/", to_string(f.oracle),
                    "] ", f.summary, "\n");
    // A race has two sides: each access, by its thread, where it happened.
    if (f.accesses.size() >= 2) {
      for (std::size_t i = 0; i < f.accesses.size(); ++i) {
        const Access& a = f.accesses[i];
        absl::StrAppend(&out, "      ", i == 0 ? "" : "previous ", a.what,
                        " by ", access_thread(a));
        if (const Frame* at = access_frame(a)) {
          absl::StrAppend(&out, " at ", short_symbol(at->function), " ",
                          display_path(at->file), ":", at->line);
        }
        out += "\n";
      }
      continue;
    }
    if (f.subject_frame && !f.subject_frame->function.empty()) {
      absl::StrAppend(&out, "      at ",
                      short_symbol(f.subject_frame->function), " ",
                      display_path(f.subject_frame->file), ":",
                      f.subject_frame->line, "\n");
    }
  }
  return out;
}

}  // namespace racelab
