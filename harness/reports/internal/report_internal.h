// Helpers shared by the report writers (harness/reports/src/*.cc); not part of
// the public API.
#ifndef RACELAB_SRC_REPORT_REPORT_INTERNAL_H_
#define RACELAB_SRC_REPORT_REPORT_INTERNAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"
#include "racelab/gate.h"
#include "racelab/internal/case.h"
#include "racelab/runner.h"

namespace racelab::report {

// The finding kinds named in a CaseResult::expected text ("clean", "data_race
// or use_after_free"); unknown words are ignored.
std::vector<FindingKind> expected_kinds(const CaseResult& c);
bool is_expected_kind(const CaseResult& c, FindingKind kind);

// Why a mismatching case failed, for JUnit's failure type: "missed_finding"
// (nothing that was expected was caught), "unexpected_finding" (a clean case
// reported something), "not_verified" (a case that must be verified ended
// clean but not verified: nothing found, yet not every schedule was run),
// "stray_finding" (caught, plus a kind not allowed) or "no_expectation" (the
// table has no row for the case).
const char* mismatch_type(const CaseResult& c);

// "expected data_race, observed clean: <reason>".
std::string mismatch_message(const CaseResult& c);

// "checkpoint/mutex x seed_slow_reader (stress)".
std::string case_title(const CaseResult& c);

// explore's vocabulary (explore_vocabulary.cc): the reports of a run whose
// RunKind is not kGate say what each search found, not how a case met an
// expectation.
bool is_explore(const GateOptions& options);
// The reports' title: "racelab gate", or "racelab explore: counter --n 3"
// (the program as the cases name it; "racelab explore" with no case).
std::string report_title(const GateResult& result, const GateOptions& options);
// The headline: "4 cases, 1 mismatch" (gate), "1 search: 1 found, 0 clean,
// 0 verified" (a program), "22 tests: 3 found, 5 clean, 14 verified".
std::string headline_text(const GateResult& result, const GateOptions& options);
// How the reports name a case: case_title() in a gate; the program and its
// arguments for `racelab explore`; the test's name for `explore --tests`.
std::string case_name(const CaseResult& c, RunKind kind);
// What an explored case's search came to, in explore's words: "found
// data_race, crash at schedule 3 of 20 (pct)", "clean over 20 schedules
// (pct)", "verified: every schedule that matters, 41 in all (dfs)".
std::string explore_outcome(const CaseResult& c);

// The modes of the report, in order: those of the options, then any other a
// case has.
std::vector<Mode> report_modes(const std::vector<CaseResult>& cases,
                               const std::vector<Mode>& option_modes);

// What ran, for a report's header: per mode, runs per stress case and
// searches and schedules per controlled case, as the cases report them
// ("stress: 20 runs per case; controlled (pct, up to 1000 schedules per
// search): 1 search per case, 5 to 1000 schedules tried per case; seed 1").
std::string what_ran(const std::vector<CaseResult>& cases,
                     const GateOptions& options);

// How much of a case found a finding, in the unit of its mode: "3/20 runs"
// (stress) or "1/1 searches" (controlled).
std::string runs_text(const CaseResult& c, int found);

// What a case showed, for a reader: its finding kinds joined with ", ", or
// "verified" (a controlled search that ran out without a finding) or
// "clean".
std::string observed_text(const CaseResult& c);

// The effort of a case in a word or two, for a matrix cell: "3/20 runs"
// (stress), "schedule 5 of 5" or "1000 schedules" (controlled).
std::string effort_text(const CaseResult& c);

// Seconds with millisecond precision: "1.250".
std::string format_seconds(double seconds);

// At most `max_bytes` of `text`, cut at a UTF-8 boundary, with `marker`
// appended when something was cut.
std::string truncate_utf8(std::string_view text, std::size_t max_bytes,
                          std::string_view marker = "…");

// The location a finding is reported at: its subject frame, else the first
// frame of an access that lies inside the repository, else the subject's
// source file (line 0: unknown).
Frame primary_frame(const CaseResult& c, const Finding& f);

// True when `file` names a file of the repository (a relative path).
bool is_project_file(std::string_view file);

// A frame's function as written in code (readable_symbol()), "?" when
// unknown; without `parameters`, its parameter list reads "(...)".
// results.json keeps the full name.
std::string frame_name(const Frame& f, bool parameters = true);

// How a stack reads in a report: the store's own frames open, the rest
// folded. `shown` indexes the frames shown open: the store's frames (at most
// kMaxShown), or the first frame that is not the library's when the stack has
// none. The folded stack is frames [0, folded_end): up to the caller of the
// last store frame (the frames below it start the thread and run the
// scenario), all of a stack without store frames; at most kMaxFolded.
struct StackView {
  static constexpr std::size_t kMaxShown = 8;
  static constexpr std::size_t kMaxFolded = 24;
  std::vector<std::size_t> shown;
  std::size_t folded_end = 0;
  int library = 0;  // library and racelab frames in [0, folded_end)
  int racelab = 0;
};
StackView stack_view(const std::vector<Frame>& stack);

// Findings a person reads as one: the same kind and oracle at the same store
// frames (file and line) of their accesses, taken as a set (TSan reports a
// race from either side), or at the same subject frame for a finding without
// accesses. Threads, sizes, call paths through racelab and the library, and
// the keys in the summary may differ.
std::string finding_group_key(const Finding& f);

// Percent-encodes a path for a relative URI reference (keeps the unreserved
// characters and '/'); the SARIF locations and the page's source links.
std::string percent_encode_path(std::string_view path);

// Where the rules' help lives: RACELAB_REPOSITORY_URL, else the repository of
// the CI run (GitHub Actions or GitLab CI variables), else the project's home.
// Never ends with '/'.
std::string repository_url();
std::string docs_url(std::string_view page_and_anchor);

}  // namespace racelab::report

#endif  // RACELAB_SRC_REPORT_REPORT_INTERNAL_H_
