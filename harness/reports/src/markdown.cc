// summary.md: what a reviewer reads in a pull request. A headline (N cases,
// M mismatches), one table row per case, the mismatches with their reasons,
// then one short section per finding kind that was observed. Every string
// from a run goes through markdown_cell(), so a `|`, a backtick, a `<` or a
// line break in a symbol name or summary can neither split a table cell nor
// start markup.
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab {
namespace {

using report::markdown_cell;

constexpr std::size_t kMaxSummaryBytes = 400;
constexpr std::size_t kMaxItemsPerKind = 50;

std::string case_line(const CaseResult& c) {
  return absl::StrCat(markdown_cell(c.subject), " × ",
                      markdown_cell(c.scenario), " (", to_string(c.mode), ")");
}

std::string frame_text(const Frame& f) {
  std::string s = markdown_cell(report::frame_name(f));
  if (!f.file.empty()) {
    absl::StrAppend(&s, " (", markdown_cell(f.file));
    if (f.line > 0) absl::StrAppend(&s, ":", f.line);
    s += ")";
  }
  return s;
}

}  // namespace

std::string summary_markdown(const GateResult& result,
                             const GateOptions& options) {
  std::string out = "# racelab gate\n\n";
  const std::size_t n = result.cases.size();
  const int m = result.mismatches;
  absl::StrAppend(&out, m == 0 ? "✅ " : "❌ ", "**", n,
                  n == 1 ? " case, " : " cases, ", m,
                  m == 1 ? " mismatch" : " mismatches", "**\n\n");
  std::vector<std::string> modes;
  for (Mode mode : report::report_modes(result.cases, options.modes)) {
    modes.push_back(to_string(mode));
  }
  absl::StrAppend(&out, "Modes: ", absl::StrJoin(modes, ", "), "; ",
                  markdown_cell(report::what_ran(result.cases, options)),
                  ".\n\n");
  if (const std::string line = report::run_line(result, options);
      !line.empty()) {
    absl::StrAppend(&out, markdown_cell(line), ".\n\n");
  }

  out +=
      "| subject | scenario | mode | expected | observed | runs or schedules | "
      "verdict |\n";
  out += "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const CaseResult& c : result.cases) {
    absl::StrAppend(
        &out, "| ", markdown_cell(c.subject), " | ", markdown_cell(c.scenario),
        " | ", to_string(c.mode), " | ", markdown_cell(c.expected), " | ",
        markdown_cell(report::observed_text(c)), " | ", report::effort_text(c),
        " | ", c.mismatch.empty() ? "ok" : "**MISMATCH**", " |\n");
  }

  out += "\n## Mismatches\n\n";
  if (std::all_of(result.cases.begin(), result.cases.end(),
                  [](const CaseResult& c) { return c.mismatch.empty(); })) {
    out += "None: every case produced the verdict it must.\n";
  }
  for (const CaseResult& c : result.cases) {
    if (c.mismatch.empty()) continue;
    absl::StrAppend(
        &out, "- **", case_line(c), "**: ", markdown_cell(c.mismatch),
        " (observed: ", markdown_cell(report::observed_text(c)), ")\n");
    if (!c.schedule_file.empty()) {
      absl::StrAppend(&out, "  - replay: ", markdown_cell(c.schedule_file),
                      "\n");
    }
  }

  // Runs made twice because something outside racelab killed them: only
  // when there are any, so that a gate without them reads as before.
  std::string retried;
  for (const CaseResult& c : result.cases) {
    for (const RetriedRun& run : c.retried) {
      absl::StrAppend(&retried, "- ", case_line(c), ": ",
                      markdown_cell(describe(run)), "\n");
    }
  }
  if (!retried.empty()) absl::StrAppend(&out, "\n## Retried runs\n\n", retried);

  // One section per kind that was observed, in the order of the enum.
  out += "\n## Findings by kind\n";
  std::vector<FindingKind> unseen;
  for (FindingKind kind : all_finding_kinds()) {
    std::vector<std::string> items;
    for (const CaseResult& c : result.cases) {
      // Findings a person reads as one (report::finding_group_key()) are one
      // item, with how many reports it stands for.
      std::vector<std::pair<const AggregatedFinding*, int>> groups;
      std::map<std::string, std::size_t> group_of;
      for (const AggregatedFinding& a : c.findings) {
        if (a.finding.kind != kind) continue;
        auto [it, added] = group_of.try_emplace(
            report::finding_group_key(a.finding), groups.size());
        if (added) groups.emplace_back(&a, 0);
        ++groups[it->second].second;
      }
      for (const auto& [a, reports] : groups) {
        std::string item = absl::StrCat(
            "- ", case_line(c), ", ", report::runs_text(c, a->runs), ", ",
            to_string(a->finding.oracle), ": ",
            markdown_cell(
                report::truncate_utf8(a->finding.summary, kMaxSummaryBytes)));
        if (a->finding.subject_frame) {
          absl::StrAppend(&item, " at ", frame_text(*a->finding.subject_frame));
        }
        if (reports > 1) {
          absl::StrAppend(
              &item, " (and ", reports - 1,
              reports == 2 ? " similar report)" : " similar reports)");
        }
        absl::StrAppend(&item, c.mismatch.empty() ? "" : " (**MISMATCH**)");
        items.push_back(std::move(item));
      }
    }
    if (items.empty()) {
      unseen.push_back(kind);
      continue;
    }
    absl::StrAppend(&out, "\n### ", markdown_cell(to_string(kind)), "\n\n",
                    report::describe_kind(kind), "\n\n");
    for (std::size_t i = 0; i < items.size() && i < kMaxItemsPerKind; ++i) {
      absl::StrAppend(&out, items[i], "\n");
    }
    if (items.size() > kMaxItemsPerKind) {
      absl::StrAppend(&out, "- … and ", items.size() - kMaxItemsPerKind,
                      " more (see results.json)\n");
    }
  }
  if (!unseen.empty()) {
    absl::StrAppend(
        &out, "\nNot observed in this run: ",
        markdown_cell(absl::StrJoin(unseen, ", ",
                                    [](std::string* s, FindingKind k) {
                                      absl::StrAppend(s, to_string(k));
                                    })),
        ".\n");
  }
  return out;
}

}  // namespace racelab
