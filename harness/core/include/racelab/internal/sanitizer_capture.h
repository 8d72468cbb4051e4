// In-process capture of sanitizer reports, for the child process of a case.
//
// Under TSan, the report hook (TSan's OnReport, called before a report is
// printed) receives each report; it copies the raw facts (kind, accesses,
// program counters) into static storage that TSan does not instrument, and
// writes one notice line to the result channel with a raw system call so that
// a run that later crashes still counts its report. After the run,
// take_tsan_findings() symbolizes them into Findings. A report that repeats
// one of the run's (the same pair of access stacks, or the same racy address)
// is dropped before TSan prints it: TSan's own de-duplication is per process,
// so it is off where many runs share one, and the hook keeps it per run
// instead (a run ends at take_tsan_findings()). TSan prints the first
// CapturedReports::kPrintedReports distinct reports of a run (session_state.h);
// the rest are captured without printing, and the run's end says on stderr
// how many were not printed. Under ASan, a death callback writes the report's
// kind and first frame before the process dies. In a build without the
// sanitizer these do nothing.
#ifndef RACELAB_SANITIZER_CAPTURE_H_
#define RACELAB_SANITIZER_CAPTURE_H_

#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"

namespace racelab {

// Where notices go (a file descriptor open for writing), or -1 for nowhere.
void set_sanitizer_notice_fd(int fd);

// Installs the ASan death callback (no-op in other builds).
void install_asan_death_callback();

// The exit status of a kit test binary (racelab/kit_binary.h) whose TSan
// runtime died (a fatal error, an internal CHECK): never 0, although kit
// binaries run with TSan's exitcode=0.
inline constexpr int kSanitizerDiedExitCode = 70;

// The folders (repo-relative, "subjects/", or absolute) that hold the stores'
// own code: a finding's subject frame is the first frame of a stack under one
// of them. With none set (a kit user's process), it is the first frame of
// user origin (frame_origin_of: outside racelab's folders and outside system
// and library paths). Set before the run starts; not thread-safe.
void set_source_roots(std::vector<std::string> roots);
// The first frame of `stack` in the stores' own code, or nullptr. A root
// given absolute also matches racelab's own files (named relative to its
// source folder) under it. With no roots, a frame under the project folder
// (project_dir()) is the user's code wherever that folder is (/usr/src/app,
// /build/...).
const Frame* first_subject_frame(const std::vector<Frame>& stack);

// The user's project folder (absolute): set_project_dir(), else the one a
// kit test binary was built from (racelab_add_store_tests compiles it in,
// racelab/kit_binary.h), else "".
void set_project_dir(std::string dir);
std::string project_dir();
// `file` as messages name it: relative to the project folder, or to the
// absolute source root holding it; else as the debug information names it.
std::string display_path(std::string_view file);

// The TSan reports captured since the last call, symbolized; the call also
// ends the run for the de-duplication of reports.
std::vector<Finding> take_tsan_findings();

// How many TSan reports the hook has seen since the process started.
int tsan_reports_seen();

// Whether TSan's reports are wanted (default true). Off (a check with the
// tsan oracle switched off), the report hook drops every report before TSan
// prints or symbolizes it: nothing on stderr, nothing captured.
void set_tsan_reports_wanted(bool wanted);
// False also while a ReportsDropped lives.
bool tsan_reports_wanted();

// While it lives, every TSan report is dropped as with reports not wanted:
// for code the harness runs on its own after a run (the sequential model
// replaying the store's class), whose reports are no finding of the run.
class ReportsDropped {
 public:
  ReportsDropped();
  ~ReportsDropped();
  ReportsDropped(const ReportsDropped&) = delete;
  ReportsDropped& operator=(const ReportsDropped&) = delete;
};

// built_with_tsan() and built_with_asan() are in racelab/oracle.h.

// The finding kind of a TSan report type ("data-race", "heap-use-after-free",
// "lock-order-inversion", ...): the hook's reports and the raw notices of a
// run that died are classified the same way.
FindingKind tsan_report_kind(std::string_view description);

// Symbolizes one program counter (empty function when unknown).
Frame symbolize(const void* pc);

}  // namespace racelab

#endif  // RACELAB_SANITIZER_CAPTURE_H_
