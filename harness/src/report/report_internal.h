// Helpers shared by the report writers (harness/src/report/*.cc); not part of
// the public API.
#ifndef RACELAB_SRC_REPORT_REPORT_INTERNAL_H_
#define RACELAB_SRC_REPORT_REPORT_INTERNAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "racelab/case.h"
#include "racelab/finding.h"
#include "racelab/runner.h"

namespace racelab::report {

// The finding kinds named in a CaseResult::expected text ("clean", "data_race
// or use_after_free"); unknown words are ignored.
std::vector<FindingKind> expected_kinds(const CaseResult& c);
bool is_expected_kind(const CaseResult& c, FindingKind kind);

// Why a mismatching case failed, for JUnit's failure type: "missed_finding"
// (nothing that was expected was caught), "unexpected_finding" (a clean case
// reported something), "stray_finding" (caught, plus a kind not allowed) or
// "no_expectation" (the table has no row for the case).
const char* mismatch_type(const CaseResult& c);

// "expected data_race, observed clean: <reason>".
std::string mismatch_message(const CaseResult& c);

// "checkpoint/mutex x seed_slow_reader (stress)".
std::string case_title(const CaseResult& c);

// The modes of the report, in order: those of the options, then any other a
// case has.
std::vector<Mode> report_modes(const std::vector<CaseResult>& cases,
                               const std::vector<Mode>& option_modes);

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
