// The report writers of a gate run: next to results.json, `racelab gate --out
// DIR` writes junit.xml (CI test reports), results.sarif (code scanning),
// summary.md (a pull-request comment) and index.html (a self-contained page
// with the case matrix, swimlanes of the failing schedules and the outcome
// histograms). reports/README.md describes each file.
//
// Every string that came from a run (keys, summaries, symbol names, details)
// is escaped for its format. Characters that XML 1.0 cannot carry (C0 control
// characters other than tab, newline and carriage return, U+FFFE, U+FFFF) are
// replaced by their visible Unicode "control picture" (U+2400 + code, so \x01
// reads as U+2401) or by U+FFFD; malformed UTF-8 becomes U+FFFD. The same
// clean-up applies to the HTML and Markdown outputs; SARIF keeps the exact
// text, JSON-escaped.
#ifndef RACELAB_REPORT_H_
#define RACELAB_REPORT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "racelab/finding.h"
#include "racelab/gate.h"

namespace racelab {

// Writes junit.xml, results.sarif, summary.md and index.html into `out_dir`
// (which must exist), each with write_file_atomically(): a unique temporary
// file, checked writes, fsync and a rename. Throws OutputError (a
// std::runtime_error) naming the file on I/O errors.
void write_reports(const GateResult& result, const GateOptions& options,
                   const std::string& out_dir);

// The individual documents, as write_reports() writes them.
std::string junit_xml(const GateResult& result, const GateOptions& options);
nlohmann::json sarif_log(const GateResult& result, const GateOptions& options);
std::string summary_markdown(const GateResult& result,
                             const GateOptions& options);
std::string html_report(const GateResult& result, const GateOptions& options);

namespace report {

// The verdict of a case as the reports colour it.
enum class Verdict { kCleanOk, kCaughtOk, kMismatch };
Verdict verdict_of(const CaseResult& c);
// "clean-ok", "caught-ok", "mismatch": CSS classes and data attributes.
const char* to_string(Verdict verdict);

// The verdict of a case of `racelab explore` (GateOptions::run_kind other
// than RunKind::kGate), which has no expectation to meet: the search found
// something, ended clean, or (dfs) searched every schedule that matters.
enum class ExploreVerdict { kFound, kClean, kVerified };
ExploreVerdict explore_verdict_of(const CaseResult& c);
// "found", "clean", "verified": words of the reports and data attributes.
const char* to_string(ExploreVerdict verdict);

// The SARIF rule id of a finding kind: "racelab/data_race".
std::string rule_id(FindingKind kind);
// The rule id of the result written when an expected finding was not caught.
inline constexpr const char* kMissedRuleId = "racelab/expected_finding_missing";
// One sentence on what a finding kind means, for rules and report sections.
const char* describe_kind(FindingKind kind);

// The name of a case's log under logs/ (the sanitizer output of its first
// failing run): "checkpoint_mutex__seed_slow_reader.stress.log".
std::string log_file_name(const CaseResult& c);

// One line on how the run came about, for the reports' headers: "run
// <run id>", the shard ("shard 2 of 3") or the shards it was merged from, and
// whether it was interrupted with how many cases not run. Empty parts are
// left out.
std::string run_line(const GateResult& result, const GateOptions& options);

// The stable identity of a finding across runs, for SARIF partialFingerprints
// ("racelabFinding/v1"): a hash of rule id, subject, scenario, file and
// function; never of lines, addresses or the mode. 32 hex digits.
std::string finding_fingerprint(std::string_view rule, std::string_view subject,
                                std::string_view scenario,
                                std::string_view file,
                                std::string_view function);

// Valid UTF-8 that XML 1.0 accepts (see the top of this file).
std::string xml_safe(std::string_view text);
// xml_safe() plus entity-escaping of & < > " ' for HTML text and attributes.
std::string html_escape(std::string_view text);
// Text safe inside one cell of a GitHub-flavoured Markdown table: xml_safe(),
// backslash before | ` \ * _ [ ] ~, &amp; &lt; &gt; for & < >, and <br> for a
// line break.
std::string markdown_cell(std::string_view text);

}  // namespace report
// Writes out_dir/results.json, logs/ and every report of write_reports()
// into out_dir (creating the folder), each file with write_file_atomically().
// A result without a run id gets a new one, the same in every file. Throws
// OutputError on I/O errors.
void write_results_json(const GateResult& result, const GateOptions& options,
                        const std::string& out_dir);

// The results.json document of a gate (what write_results_json() writes).
nlohmann::json results_document(const GateResult& result,
                                const GateOptions& options);

}  // namespace racelab

#endif  // RACELAB_REPORT_H_
