// TSan report hook and ASan death callback; see sanitizer_capture.h.
#include "racelab/internal/sanitizer_capture.h"

#include <sanitizer/common_interface_defs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/session_state.h"
#include "racelab/symbol_names.h"
#include "racelab_sanitizer_options.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_HAS_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define RACELAB_HAS_ASAN 1
#include <sanitizer/asan_interface.h>
#endif
#endif

// Defined by kit test binaries only (racelab/kit_binary.h; see
// __tsan_default_options below): the marker and the project's folder.
extern "C" __attribute__((weak)) int racelab_kit_test_binary();
extern "C" __attribute__((weak)) const char* racelab_kit_project_dir();

namespace racelab {

Frame parse_frame(const std::string& text);
std::vector<Frame> symbolize_inline_chain(const void* pc);

namespace {

constexpr std::size_t kSymbolBufferBytes = 256 * 1024;
using Captured = session_internal::CapturedReports;
constexpr int kMaxReports = Captured::kMaxReports;
[[maybe_unused]] constexpr int kPrintedReports = Captured::kPrintedReports;
// kMaxFrames and kMaxThreads bound the TSan report hook's copies; an ASan
// build has no such hook.
[[maybe_unused]] constexpr int kMaxFrames = Captured::kMaxFrames;
constexpr int kMaxMops = Captured::kMaxMops;
[[maybe_unused]] constexpr int kMaxThreads = Captured::kMaxThreads;
using RawMop = Captured::Mop;
using RawThread = Captured::Thread;
using RawReport = Captured::Report;

// The captured reports live in the current session (session_state.h).
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
Captured&
captured() {
  return session_internal::current().reports;
}

// Process-wide on purpose: the descriptor of this process's result channel
// (a case run's child sets it once), not a property of one run.
int g_notice_fd = -1;

[[maybe_unused]] __attribute__((no_sanitize("thread"),
                                disable_sanitizer_instrumentation)) void
raw_write(const char* text) {
  if (g_notice_fd < 0) return;
  size_t len = 0;
  while (text[len] != '\0') ++len;
  while (len > 0) {
    long n = syscall(SYS_write, g_notice_fd, text, len);
    if (n <= 0) return;
    text += n;
    len -= static_cast<size_t>(n);
  }
}

[[maybe_unused]] __attribute__((no_sanitize("thread"),
                                disable_sanitizer_instrumentation)) void
append(char* out, size_t cap, const char* text) {
  size_t used = 0;
  while (used < cap - 1 && out[used] != '\0') ++used;
  for (size_t i = 0; text[i] != '\0' && used < cap - 1; ++i)
    out[used++] = text[i];
  out[used] = '\0';
}

// The logical thread of a TSan thread: racelab names its threads and fibers
// "... thread N"; other threads keep TSan's number, as "T<tid>".
std::string thread_label(const RawReport& r, int tid, int* logical) {
  *logical = -1;
  for (int i = 0; i < r.threads; ++i) {
    if (r.thread[i].tid != tid) continue;
    std::string_view name(r.thread[i].name);
    size_t at = name.rfind("thread ");
    if (at == std::string_view::npos) break;
    int n = 0;
    bool digits = at + 7 < name.size();
    for (char c : name.substr(at + 7)) {
      if (c < '0' || c > '9')
        digits = false;
      else
        n = n * 10 + (c - '0');
    }
    if (!digits) break;
    *logical = n;
    return absl::StrCat("thread ", n);
  }
  return absl::StrCat("T", tid);
}

std::string access_text(const RawMop& m) {
  return absl::StrCat(m.atomic ? "atomic " : "", m.write ? "write" : "read",
                      " of size ", m.size);
}

// TSan lists one entry per frame, repeating a PC for each function inlined at
// it; symbolizing each distinct PC once, with its whole inline chain, gives
// every frame.
std::vector<Frame> symbolize_trace(void* const* trace, int frames) {
  std::vector<Frame> stack;
  for (int i = 0; i < frames; ++i) {
    if (trace[i] == nullptr) break;
    if (i > 0 && trace[i] == trace[i - 1]) continue;
    for (Frame& f : symbolize_inline_chain(trace[i]))
      stack.push_back(std::move(f));
  }
  return stack;
}

// A frame as the detail text shows it: the name as written in code (the
// accesses keep the full one).
std::string where(const Frame& f) {
  return absl::StrCat(f.file, ":", f.line, " (", readable_symbol(f.function),
                      ")");
}

}  // namespace

void set_sanitizer_notice_fd(int fd) { g_notice_fd = fd; }

FindingKind tsan_report_kind(std::string_view description) {
  if (description.starts_with("data-race")) return FindingKind::kDataRace;
  if (description.starts_with("heap-use-after-free"))
    return FindingKind::kUseAfterFree;
  if (description == "lock-order-inversion" ||
      description == "mutex-double-lock")
    return FindingKind::kDeadlock;
  return FindingKind::kCrash;  // other TSan errors: misuse of the runtime
                               // itself
}

std::vector<Frame> symbolize_inline_chain(const void* pc) {
  // The runtime writes one "function|file|line" record per frame, innermost
  // first, each ended by a NUL byte; a zeroed buffer marks the end. Names of
  // template code run to kilobytes, and an inline chain has several: the
  // buffer is large enough that none is cut.
  // It is zeroed once and only the part written is cleared again.
  thread_local std::vector<char> buf(kSymbolBufferBytes, '\0');
#if defined(RACELAB_HAS_TSAN) || defined(RACELAB_HAS_ASAN)
  __sanitizer_symbolize_pc(const_cast<void*>(pc), "%f\x1f%s\x1f%l", buf.data(),
                           buf.size() - 1);
#else
  (void)pc;  // no sanitizer runtime, no symbolizer: frames stay unnamed
#endif
  std::vector<Frame> frames;
  char* const end = buf.data() + buf.size() - 1;
  char* p = buf.data();
  for (; p < end && *p != '\0'; p += std::strlen(p) + 1) {
    frames.push_back(parse_frame(p));
  }
  std::memset(buf.data(), 0,
              static_cast<std::size_t>(std::min(p, end) - buf.data()));
  return frames;
}

Frame symbolize(const void* pc) {
  std::vector<Frame> frames = symbolize_inline_chain(pc);
  return frames.empty() ? Frame{} : frames.front();
}

Frame parse_frame(const std::string& text) {
  Frame frame;
  size_t a = text.find('\x1f');
  size_t b = a == std::string::npos ? a : text.find('\x1f', a + 1);
  if (b == std::string::npos) {
    frame.function = text;
    frame.origin = FrameOrigin::kLibrary;  // no file: a runtime's code
    return frame;
  }
  frame.function = text.substr(0, a);
  frame.file = text.substr(a + 1, b - a - 1);
  frame.line = std::atoi(text.c_str() + b + 1);
  // "/usr/bin/../lib/gcc/.../../../../include/c++/12/bits/hashtable.h" is
  // /usr/include/c++/12/bits/hashtable.h; a unit compiled from a relative
  // path (a compiler cache's base_dir) names "<build>/../../harness/...".
  if (frame.file.starts_with('/') &&
      frame.file.find("/..") != std::string::npos)
    frame.file = std::filesystem::path(frame.file).lexically_normal().string();
  // Files of this project are named relative to its source folder.
  constexpr std::string_view kSourceDir = RACELAB_SOURCE_DIR "/";
  if (std::string_view(frame.file).starts_with(kSourceDir)) {
    frame.file.erase(0, kSourceDir.size());
  }
  if (frame.function == "<null>") frame.function.clear();
  if (frame.file == "<null>") frame.file.clear();
  frame.origin = frame_origin_of(frame.file);
  return frame;
}

bool built_with_tsan() {
#ifdef RACELAB_HAS_TSAN
  return true;
#else
  return false;
#endif
}

bool built_with_asan() {
#ifdef RACELAB_HAS_ASAN
  return true;
#else
  return false;
#endif
}

int tsan_reports_seen() { return captured().seen.load(); }

namespace {
// Whether TSan's reports are wanted (see set_tsan_reports_wanted) and how
// many ReportsDropped scopes live. The report hook reads them, so they are
// read and written with the compiler's atomic builtins in uninstrumented
// functions: no scheduling point, nothing TSan sees.
bool g_tsan_reports_wanted = true;
int g_reports_dropped = 0;
}  // namespace

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
ReportsDropped::ReportsDropped() {
  __atomic_fetch_add(&g_reports_dropped, 1, __ATOMIC_SEQ_CST);
}
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
ReportsDropped::~ReportsDropped() {
  __atomic_fetch_sub(&g_reports_dropped, 1, __ATOMIC_SEQ_CST);
}

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) void
set_tsan_reports_wanted(bool wanted) {
  __atomic_store_n(&g_tsan_reports_wanted, wanted, __ATOMIC_SEQ_CST);
}

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) bool
tsan_reports_wanted() {
  return __atomic_load_n(&g_tsan_reports_wanted, __ATOMIC_RELAXED) &&
         __atomic_load_n(&g_reports_dropped, __ATOMIC_RELAXED) == 0;
}

namespace {
std::vector<std::string>& source_roots() {
  static auto* roots = new std::vector<std::string>;
  return *roots;
}
}  // namespace

void set_source_roots(std::vector<std::string> roots) {
  source_roots() = std::move(roots);
}

namespace {

std::string& project_dir_override() {
  static auto* dir = new std::string;
  return *dir;
}

// A file as the debug information names it, absolute: files of racelab's
// source folder are kept relative to it (parse_frame).
std::string absolute_file(std::string_view file) {
  if (file.empty() || file.front() == '/') return std::string(file);
  return std::string(RACELAB_SOURCE_DIR "/") + std::string(file);
}

// `file` under folder `dir` (no trailing '/' needed): the rest, else nullopt.
std::optional<std::string> relative_to(std::string_view file,
                                       std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  if (dir.empty() || !file.starts_with(dir)) return std::nullopt;
  if (file.size() <= dir.size() || file[dir.size()] != '/') return std::nullopt;
  return std::string(file.substr(dir.size() + 1));
}

bool under(std::string_view file, std::string_view root) {
  return file.starts_with(root) ||
         (!root.empty() && root.front() == '/' &&
          relative_to(absolute_file(file), root).has_value());
}

}  // namespace

void set_project_dir(std::string dir) {
  project_dir_override() = std::move(dir);
}

std::string project_dir() {
  if (!project_dir_override().empty()) return project_dir_override();
  if (racelab_kit_project_dir != nullptr) return racelab_kit_project_dir();
  return "";
}

std::string display_path(std::string_view file) {
  const std::string absolute = absolute_file(file);
  const std::string project = project_dir();
  if (std::optional<std::string> rel = relative_to(absolute, project))
    return *rel;
  for (const std::string& root : source_roots()) {
    if (root.empty() || root.front() != '/') continue;
    if (std::optional<std::string> rel = relative_to(absolute, root))
      return *rel;
  }
  return std::string(file);
}

const Frame* first_subject_frame(const std::vector<Frame>& stack) {
  const std::string project = project_dir();
  for (const Frame& f : stack) {
    if (f.file.empty()) continue;
    if (source_roots().empty()) {
      if (f.origin == FrameOrigin::kUser) return &f;
      // The user's project may live where system code usually does
      // (/usr/src/app, /build/...): its own files are its code.
      if (f.origin == FrameOrigin::kLibrary && !project.empty() &&
          under(f.file, project)) {
        return &f;
      }
      continue;
    }
    for (const std::string& root : source_roots()) {
      if (under(f.file, root)) return &f;
    }
  }
  return nullptr;
}

std::vector<Finding> take_tsan_findings() {
  std::vector<Finding> findings;
  Captured& reports = captured();
  const int end = std::min(reports.count.load(), kMaxReports);
  for (int r = 0; r < end; ++r) {
    const RawReport& raw = reports.reports[r];
    Finding f{tsan_report_kind(raw.description),
              Oracle::kTsan,
              "",
              "",
              std::nullopt,
              {}};
    std::string who[kMaxMops];
    for (int m = 0; m < raw.mops; ++m) {
      int logical = -1;
      who[m] = thread_label(raw, raw.mop[m].tid, &logical);
      Access a{access_text(raw.mop[m]), logical,
               symbolize_trace(raw.mop[m].trace, raw.mop[m].frames)};
      a.tsan_tid = raw.mop[m].tid;
      if (!f.subject_frame) {
        if (const Frame* s = first_subject_frame(a.stack)) f.subject_frame = *s;
      }
      f.accesses.push_back(std::move(a));
    }
    if (raw.mops == 0 && raw.frames > 0) {
      std::vector<Frame> stack = symbolize_trace(raw.trace, raw.frames);
      if (const Frame* s = first_subject_frame(stack)) f.subject_frame = *s;
      f.accesses.push_back({"stack", -1, std::move(stack)});
    }
    f.summary = absl::StrCat("ThreadSanitizer: ", raw.description);
    if (f.accesses.size() >= 2 && raw.mops >= 2) {
      absl::StrAppend(&f.summary, ": ", f.accesses[0].what, " by ", who[0],
                      " vs previous ", f.accesses[1].what, " by ", who[1]);
    }
    if (f.subject_frame) {
      absl::StrAppend(
          &f.summary, " in ", short_symbol(f.subject_frame->function), " at ",
          display_path(f.subject_frame->file), ":", f.subject_frame->line);
    }
    for (size_t i = 0; i < f.accesses.size(); ++i) {
      const Access& a = f.accesses[i];
      absl::StrAppend(&f.detail, a.what, " by ", i < kMaxMops ? who[i] : "?",
                      ":\n");
      for (size_t i = 0; i < a.stack.size(); ++i) {
        absl::StrAppend(&f.detail, "  #", i, " ", where(a.stack[i]), "\n");
      }
    }
    findings.push_back(std::move(f));
  }
  if (const int unprinted = reports.count.load() - kPrintedReports;
      unprinted > 0) {
    std::fprintf(stderr,
                 "racelab: %d more distinct ThreadSanitizer report%s in this "
                 "run, not printed (the first %d of a run are; the run's "
                 "findings hold up to %d)\n",
                 unprinted, unprinted == 1 ? "" : "s", kPrintedReports,
                 kMaxReports);
  }
  // Called when no thread that could report is running (after a join, between
  // schedules), so the slots can be reused.
  reports.count.store(0);
  reports.distinct_count.store(0);
  reports.repeats.store(0);
  return findings;
}

void install_asan_death_callback() {
#ifdef RACELAB_HAS_ASAN
  __sanitizer_set_death_callback([] {
    std::string kind = "unknown";
    std::string frame;
    if (__asan_report_present()) {
      kind = __asan_get_report_description();
      Frame f = symbolize(__asan_get_report_pc());
      frame = absl::StrCat(f.file, ":", f.line, " (", f.function, ")");
    }
    std::string line = absl::StrCat("{\"event\":\"asan_report\",\"kind\":\"",
                                    kind, "\",\"frame\":\"", frame, "\"}\n");
    raw_write(line.c_str());
  });
#endif
}

}  // namespace racelab

#ifdef RACELAB_HAS_TSAN
extern "C" {
void* __tsan_get_current_report();
int __tsan_get_report_data(void* report, const char** description, int* count,
                           int* stack_count, int* mop_count, int* loc_count,
                           int* mutex_count, int* thread_count,
                           int* unique_tid_count, void** sleep_trace,
                           unsigned long trace_size);
int __tsan_get_report_mop(void* report, unsigned long idx, int* tid,
                          void** addr, int* size, int* write, int* atomic,
                          void** trace, unsigned long trace_size);
int __tsan_get_report_stack(void* report, unsigned long idx, void** trace,
                            unsigned long trace_size);
int __tsan_get_report_thread(void* report, unsigned long idx, int* tid,
                             unsigned long* os_id, int* running,
                             const char** name, int* parent_tid, void** trace,
                             unsigned long trace_size);

}  // extern "C"

namespace racelab {
namespace {

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
std::uint64_t
mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
std::uint64_t
hash_trace(void* const* trace, int frames) {
  std::uint64_t h = 0;
  for (int i = 0; i < frames && trace[i] != nullptr; ++i)
    h = mix(h, reinterpret_cast<std::uintptr_t>(trace[i]));
  return h;
}

// The counts of a report's parts that the hooks use.
struct ReportShape {
  const char* description = nullptr;
  int stacks = 0;
  int mops = 0;
  int threads = 0;
};

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
ReportShape
shape_of(void* report) {
  ReportShape shape;
  int count = 0, loc_count = 0, mutex_count = 0, unique_tid_count = 0;
  void* sleep_trace[1];
  __tsan_get_report_data(report, &shape.description, &count, &shape.stacks,
                         &shape.mops, &loc_count, &mutex_count, &shape.threads,
                         &unique_tid_count, sleep_trace, 1);
  return shape;
}

// Whether `report` repeats one of this run's (see Captured::distinct); when
// it does not, it is remembered.
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) bool
is_repeat_in_this_run(void* report) {
  Captured& captured = racelab::captured();
  const ReportShape shape = shape_of(report);
  const char* description = shape.description;
  const int stack_count = shape.stacks, mop_count = shape.mops;
  Captured::Distinct d{0, 0, 0, 0};
  for (const char* c = description; c != nullptr && *c != '\0'; ++c)
    d.kind = mix(d.kind, static_cast<unsigned char>(*c));
  void* trace[kMaxFrames];
  // The two access stacks in either order are the same pair.
  std::uint64_t low = 0, high = 0;
  for (int m = 0; m < mop_count && m < kMaxMops; ++m) {
    int tid = 0, size = 0, write = 0, atomic = 0;
    void* addr = nullptr;
    for (void*& pc : trace) pc = nullptr;
    __tsan_get_report_mop(report, m, &tid, &addr, &size, &write, &atomic, trace,
                          kMaxFrames);
    const std::uint64_t h = hash_trace(trace, kMaxFrames);
    if (m == 0) {
      low = high = h;
      d.begin = reinterpret_cast<std::uintptr_t>(addr);
      d.end = d.begin + static_cast<std::uintptr_t>(size > 0 ? size : 1);
    } else {
      low = h < low ? h : low;
      high = h < high ? high : h;
    }
  }
  if (mop_count == 0 && stack_count > 0) {
    for (void*& pc : trace) pc = nullptr;
    __tsan_get_report_stack(report, 0, trace, kMaxFrames);
    low = high = hash_trace(trace, kMaxFrames);
  }
  d.stacks = mix(mix(0, low), high);
  const int known = captured.distinct_count.load(std::memory_order_relaxed);
  for (int i = 0; i < known && i < Captured::kMaxDistinct; ++i) {
    const Captured::Distinct& s = captured.distinct[i];
    if (s.kind != d.kind) continue;
    const bool same_stacks = s.stacks == d.stacks;
    const bool same_address =
        d.begin != d.end && s.begin < d.end && d.begin < s.end;
    if (same_stacks || same_address) {
      captured.repeats.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
  }
  if (known < Captured::kMaxDistinct) {
    captured.distinct[known] = d;
    captured.distinct_count.store(known + 1, std::memory_order_relaxed);
  }
  return false;
}

// Copies the facts of `report` (a distinct report of this run) into the
// run's slots and tells the result channel its kind; returns its slot. It
// runs inside TSan's report, on the reporting thread, so it must not touch
// memory TSan instruments (a report from inside it would make TSan wait on
// itself), nor record a function entry (an entry that fills TSan's trace
// part inside the report waits on itself too).
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) int
capture_report(void* report) {
  Captured& reports = captured();
  reports.seen.fetch_add(1);
  const ReportShape shape = shape_of(report);
  const char* description = shape.description;
  const int stack_count = shape.stacks, mop_count = shape.mops,
            thread_count = shape.threads;
  char line[160] = "{\"event\":\"tsan_report\",\"kind\":\"";
  append(line, sizeof line, description ? description : "unknown");
  append(line, sizeof line, "\"}\n");
  raw_write(line);

  int slot = reports.count.fetch_add(1);
  if (slot >= kMaxReports) return slot;
  RawReport& raw = reports.reports[slot];
  raw.description[0] = '\0';
  append(raw.description, sizeof raw.description,
         description ? description : "unknown");
  raw.threads = 0;
  for (int t = 0; t < thread_count && raw.threads < kMaxThreads; ++t) {
    RawThread& th = raw.thread[raw.threads++];
    th.name[0] = '\0';
    unsigned long os_id = 0;
    int running = 0, parent_tid = 0;
    const char* name = nullptr;
    void* trace[1];
    __tsan_get_report_thread(report, t, &th.tid, &os_id, &running, &name,
                             &parent_tid, trace, 1);
    if (name != nullptr) append(th.name, sizeof th.name, name);
  }
  raw.mops = mop_count < kMaxMops ? mop_count : kMaxMops;
  for (int m = 0; m < raw.mops; ++m) {
    RawMop& mop = raw.mop[m];
    void* addr = nullptr;
    for (void*& pc : mop.trace) pc = nullptr;
    __tsan_get_report_mop(report, m, &mop.tid, &addr, &mop.size, &mop.write,
                          &mop.atomic, mop.trace, kMaxFrames);
    mop.frames = kMaxFrames;
  }
  for (void*& pc : raw.trace) pc = nullptr;
  raw.frames = 0;
  if (stack_count > 0) {
    __tsan_get_report_stack(report, 0, raw.trace, kMaxFrames);
    raw.frames = kMaxFrames;
  }
  return slot;
}

}  // namespace
}  // namespace racelab

namespace __tsan {
struct ReportDesc;

// TSan's hook before it prints a report (weak in the runtime): true keeps
// the report from being printed. A repeat within the run is dropped, as
// TSan's own suppress_equal_stacks and suppress_equal_addresses would drop
// it in a process of its own (see Captured::distinct). Every other report is
// captured here; TSan prints only the first kPrintedReports of a run. While
// reports are not wanted (set_tsan_reports_wanted), none is printed or
// captured.
//
// It runs inside TSan's report, on the reporting thread: its locks and
// atomics must not be scheduling points (a switch here would leave TSan's
// report machinery held by a parked thread).
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation,
               visibility("default"))) bool
OnReport(const ReportDesc* report, bool suppressed) {
  if (suppressed) return true;
  racelab::NotSchedulingPoints harness;
  if (!racelab::tsan_reports_wanted()) return true;
  void* const raw = const_cast<void*>(static_cast<const void*>(report));
  if (racelab::is_repeat_in_this_run(raw)) return true;
  return racelab::capture_report(raw) >= racelab::kPrintedReports;
}
}  // namespace __tsan

#endif

// racelab's sanitizer defaults (from sanitizers/*.options), compiled in so that
// every racelab process, the case children included, starts with them. They
// live in this file, which every racelab binary links (the runner uses it), so
// the linker pulls these strong definitions out of the static library; on their
// own in an archive member they would lose to the runtime's weak ones.
//
// A kit test binary (one that includes racelab/kit_binary.h, as gtest.h and
// catch2.h do) defines racelab_kit_test_binary; the declaration here is weak,
// so in every other binary (the racelab command, its case children, the
// gate) its address is null and nothing changes. A kit binary judges TSan's
// reports itself, so it also runs with
//   exitcode=0                  an expected race does not fail the binary
//   suppress_equal_stacks=0,    every report is seen in every check and
//   suppress_equal_addresses=0  schedule of the one process (shrinking needs
//                               the report again on every rerun)
// whether CTest runs it or a user does; TSAN_OPTIONS still overrides them.
// And a runtime that dies (a fatal error, an internal CHECK) exits non-zero
// with one line on stderr, since exitcode=0 would make it exit 0.

namespace racelab {
namespace {

bool is_kit_test_binary() { return racelab_kit_test_binary != nullptr; }

#ifdef RACELAB_HAS_TSAN
__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) void
kit_sanitizer_died() {
  static const char kLine[] =
      "racelab: the sanitizer runtime died (a fatal error or an internal "
      "CHECK, above); this run is not a pass\n";
  syscall(SYS_write, 2, kLine, sizeof kLine - 1);
  syscall(SYS_exit_group, kSanitizerDiedExitCode);
}

// TSAN_OPTIONS's last exitcode=, or -1. A non-zero one means TSan's own
// exit with reports is a death too (it exits through Die), and a fatal error
// exits non-zero anyway: the callback is then not wanted.
int exitcode_in_environment() {
  const char* env = std::getenv("TSAN_OPTIONS");
  if (env == nullptr) return -1;
  const std::string_view options(env);
  int code = -1;
  for (std::size_t at = options.find("exitcode="); at != std::string_view::npos;
       at = options.find("exitcode=", at + 1)) {
    if (at > 0 && options[at - 1] != ':' && options[at - 1] != ' ' &&
        options[at - 1] != ',') {
      continue;
    }
    code = std::atoi(env + at + 9);
  }
  return code;
}

__attribute__((constructor)) void install_kit_death_callback() {
  if (!is_kit_test_binary()) return;
  if (exitcode_in_environment() > 0) return;
  __sanitizer_set_death_callback(&kit_sanitizer_died);
}
#endif

}  // namespace
}  // namespace racelab

extern "C" {
__attribute__((used, visibility("default"))) const char*
__tsan_default_options() {
  if (racelab::is_kit_test_binary()) {
    return RACELAB_TSAN_OPTIONS
        ":exitcode=0:suppress_equal_stacks=0:suppress_equal_addresses=0";
  }
  return RACELAB_TSAN_OPTIONS;
}
__attribute__((used, visibility("default"))) const char*
__asan_default_options() {
  return RACELAB_ASAN_OPTIONS;
}
}
