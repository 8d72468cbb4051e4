// TSan report hook and ASan death callback; see sanitizer_capture.h.
#include "racelab/sanitizer_capture.h"

#include <sanitizer/common_interface_defs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_HAS_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define RACELAB_HAS_ASAN 1
#include <sanitizer/asan_interface.h>
#endif
#endif

namespace racelab {
namespace {

constexpr int kMaxReports = 32;
constexpr int kMaxFrames = 24;
constexpr int kMaxMops = 2;

struct RawMop {
  int tid;
  int size;
  int write;
  int atomic;
  int frames;
  void* trace[kMaxFrames];
};

struct RawReport {
  char description[48];
  int mops;
  RawMop mop[kMaxMops];
  int frames;  // stack 0, for reports without memory accesses
  void* trace[kMaxFrames];
};

// Written only by the hook, read by take_tsan_findings() after the threads
// that could report have been joined. Kept out of TSan's view.
RawReport g_reports[kMaxReports];
std::atomic<int> g_report_count{0};
std::atomic<int> g_reports_seen{0};
int g_notice_fd = -1;

__attribute__((no_sanitize("thread"))) void raw_write(const char* text) {
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

[[maybe_unused]] __attribute__((no_sanitize("thread"))) void append(char* out, size_t cap,
                                                   const char* text) {
  size_t used = 0;
  while (used < cap - 1 && out[used] != '\0') ++used;
  for (size_t i = 0; text[i] != '\0' && used < cap - 1; ++i) out[used++] = text[i];
  out[used] = '\0';
}

std::string access_text(const RawMop& m) {
  return absl::StrCat(m.atomic ? "atomic " : "", m.write ? "write" : "read",
                      " of size ", m.size);
}

FindingKind kind_of_tsan(std::string_view description) {
  if (description.starts_with("data-race")) return FindingKind::kDataRace;
  if (description.starts_with("heap-use-after-free")) return FindingKind::kUseAfterFree;
  if (description == "lock-order-inversion" || description == "mutex-double-lock")
    return FindingKind::kDeadlock;
  return FindingKind::kCrash;  // other TSan errors: misuse of the runtime itself
}

std::vector<Frame> symbolize_trace(void* const* trace, int frames) {
  std::vector<Frame> stack;
  for (int i = 0; i < frames; ++i) {
    if (trace[i] == nullptr) break;
    stack.push_back(symbolize(trace[i]));
  }
  return stack;
}

const Frame* first_subject_frame(const std::vector<Frame>& stack) {
  for (const Frame& f : stack) {
    if (f.file.starts_with("subjects/")) return &f;
  }
  return nullptr;
}

std::string where(const Frame& f) {
  return absl::StrCat(f.file, ":", f.line, " (", f.function, ")");
}

}  // namespace

void set_sanitizer_notice_fd(int fd) { g_notice_fd = fd; }

Frame symbolize(const void* pc) {
  Frame frame;
  char buf[1024];
  buf[0] = '\0';
  __sanitizer_symbolize_pc(const_cast<void*>(pc), "%f\x1f%s\x1f%l", buf, sizeof buf);
  std::string text(buf);
  size_t a = text.find('\x1f');
  size_t b = a == std::string::npos ? a : text.find('\x1f', a + 1);
  if (b == std::string::npos) {
    frame.function = text;
    return frame;
  }
  frame.function = text.substr(0, a);
  frame.file = text.substr(a + 1, b - a - 1);
  frame.line = std::atoi(text.c_str() + b + 1);
  // Files of this project are named relative to its source folder.
  constexpr std::string_view kSourceDir = RACELAB_SOURCE_DIR "/";
  if (std::string_view(frame.file).starts_with(kSourceDir)) {
    frame.file.erase(0, kSourceDir.size());
  }
  if (frame.function == "<null>") frame.function.clear();
  if (frame.file == "<null>") frame.file.clear();
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

int tsan_reports_seen() { return g_reports_seen.load(); }

std::vector<Finding> take_tsan_findings() {
  std::vector<Finding> findings;
  const int end = std::min(g_report_count.load(), kMaxReports);
  for (int r = 0; r < end; ++r) {
    const RawReport& raw = g_reports[r];
    Finding f{kind_of_tsan(raw.description), "tsan", "", "", std::nullopt, {}};
    for (int m = 0; m < raw.mops; ++m) {
      Access a{access_text(raw.mop[m]), raw.mop[m].tid,
               symbolize_trace(raw.mop[m].trace, raw.mop[m].frames)};
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
      absl::StrAppend(&f.summary, ": ", f.accesses[0].what, " by thread T",
                      f.accesses[0].thread, " vs previous ", f.accesses[1].what,
                      " by thread T", f.accesses[1].thread);
    }
    if (f.subject_frame) absl::StrAppend(&f.summary, " at ", where(*f.subject_frame));
    for (const Access& a : f.accesses) {
      absl::StrAppend(&f.detail, a.what, " by thread T", a.thread, ":\n");
      for (size_t i = 0; i < a.stack.size(); ++i) {
        absl::StrAppend(&f.detail, "  #", i, " ", where(a.stack[i]), "\n");
      }
    }
    findings.push_back(std::move(f));
  }
  // Called when no thread that could report is running (after a join, between
  // schedules), so the slots can be reused.
  g_report_count.store(0);
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
    std::string line = absl::StrCat("{\"event\":\"asan_report\",\"kind\":\"", kind,
                                    "\",\"frame\":\"", frame, "\"}\n");
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
int __tsan_get_report_mop(void* report, unsigned long idx, int* tid, void** addr,
                          int* size, int* write, int* atomic, void** trace,
                          unsigned long trace_size);
int __tsan_get_report_stack(void* report, unsigned long idx, void** trace,
                            unsigned long trace_size);

// Called by TSan for every report it prints. It must not touch memory TSan
// instruments, or a report from inside the hook makes TSan wait on itself.
__attribute__((no_sanitize("thread"))) void __tsan_on_report(void* report) {
  using racelab::g_report_count;
  using racelab::g_reports;
  racelab::g_reports_seen.fetch_add(1);
  const char* description = nullptr;
  int count = 0, stack_count = 0, mop_count = 0, loc_count = 0, mutex_count = 0,
      thread_count = 0, unique_tid_count = 0;
  void* sleep_trace[1];
  __tsan_get_report_data(report, &description, &count, &stack_count, &mop_count,
                         &loc_count, &mutex_count, &thread_count,
                         &unique_tid_count, sleep_trace, 1);
  char line[160] = "{\"event\":\"tsan_report\",\"kind\":\"";
  racelab::append(line, sizeof line, description ? description : "unknown");
  racelab::append(line, sizeof line, "\"}\n");
  racelab::raw_write(line);

  int slot = g_report_count.fetch_add(1);
  if (slot >= racelab::kMaxReports) return;
  racelab::RawReport& raw = g_reports[slot];
  raw.description[0] = '\0';
  racelab::append(raw.description, sizeof raw.description,
                  description ? description : "unknown");
  raw.mops = mop_count < racelab::kMaxMops ? mop_count : racelab::kMaxMops;
  for (int m = 0; m < raw.mops; ++m) {
    racelab::RawMop& mop = raw.mop[m];
    void* addr = nullptr;
    for (void*& pc : mop.trace) pc = nullptr;
    __tsan_get_report_mop(report, m, &mop.tid, &addr, &mop.size, &mop.write,
                          &mop.atomic, mop.trace, racelab::kMaxFrames);
    mop.frames = racelab::kMaxFrames;
  }
  for (void*& pc : raw.trace) pc = nullptr;
  raw.frames = 0;
  if (stack_count > 0) {
    __tsan_get_report_stack(report, 0, raw.trace, racelab::kMaxFrames);
    raw.frames = racelab::kMaxFrames;
  }
}
}
#endif
