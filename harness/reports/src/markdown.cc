// summary.md: what a reviewer reads in a pull request. A headline (N cases,
// M mismatches), one table row per case, the mismatches with their reasons,
// then one short section per finding kind that was observed. For `racelab
// explore` the headline counts found, clean and verified searches, the
// table names each program or test with its search, and each finding shows
// its shrunk trace first. Every string
// from a run goes through markdown_cell(), so a `|`, a backtick, a `<` or a
// line break in a symbol name or summary can neither split a table cell nor
// start markup.
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab {
namespace {

using report::markdown_cell;

constexpr std::size_t kMaxSummaryBytes = 400;
constexpr std::size_t kMaxItemsPerKind = 50;

std::string case_line(const CaseResult& c, RunKind kind) {
  if (kind != RunKind::kGate) return markdown_cell(report::case_name(c, kind));
  return absl::StrCat(markdown_cell(c.subject), " × ",
                      markdown_cell(c.scenario), " (", to_string(c.mode), ")");
}

// A trace as a fenced code block: the fence is longer than any run of
// backticks in the text, so nothing in it can close the block.
std::string trace_block(const sched::Trace& trace) {
  const std::string text = report::xml_safe(sched::format_trace(trace, 100));
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return absl::StrCat(fence, "\n", text,
                      !text.empty() && text.back() == '\n' ? "" : "\n", fence,
                      "\n");
}

// The table and the findings of `racelab explore`: each case found, clean
// or verified with its search, and each found case with its shrunk trace
// first, then the replay of its schedule.
void explore_cases(std::string& out, const GateResult& result,
                   const GateOptions& options) {
  const RunKind kind = options.run_kind;
  absl::StrAppend(&out, "| ",
                  kind == RunKind::kExploreTests ? "test" : "program",
                  " | verdict | search | time |\n| --- | --- | --- | --- |\n");
  for (const CaseResult& c : result.cases) {
    const report::ExploreVerdict v = report::explore_verdict_of(c);
    absl::StrAppend(&out, "| ", case_line(c, kind), " | ",
                    v == report::ExploreVerdict::kFound ? "**found**"
                                                        : report::to_string(v),
                    " | ", markdown_cell(report::explore_outcome(c)), " | ",
                    report::format_seconds(c.seconds), " s |\n");
  }
  out += "\n## Findings\n\n";
  bool any = false;
  for (const CaseResult& c : result.cases) {
    if (report::explore_verdict_of(c) != report::ExploreVerdict::kFound)
      continue;
    any = true;
    absl::StrAppend(&out, "### ", case_line(c, kind), "\n\n",
                    markdown_cell(report::explore_outcome(c)), "\n\n");
    if (!c.schedule.trace.rows.empty()) {
      absl::StrAppend(&out,
                      options.run.request.shrink ? "Shrunk failing schedule:"
                                                 : "Failing schedule:",
                      "\n\n", trace_block(c.schedule.trace), "\n");
    }
    for (const AggregatedFinding& a : c.findings) {
      absl::StrAppend(&out, "- ", to_string(a.finding.kind), ": ",
                      markdown_cell(report::truncate_utf8(a.finding.summary,
                                                          kMaxSummaryBytes)),
                      "\n");
    }
    if (!c.schedule_file.empty()) {
      absl::StrAppend(&out, "- replay: racelab replay ",
                      markdown_cell(c.schedule_file), "\n");
    }
    out += "\n";
  }
  if (!any) out += "None: no search found anything.\n";
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
  const RunKind run_kind = options.run_kind;
  const bool explore = report::is_explore(options);
  std::string out = absl::StrCat(
      "# ", markdown_cell(report::report_title(result, options)), "\n\n");
  absl::StrAppend(&out, result.mismatches == 0 ? "✅ " : "❌ ", "**",
                  report::headline_text(result, options), "**\n\n");
  std::vector<std::string> modes;
  for (Mode mode : report::report_modes(result.cases, options.modes)) {
    modes.push_back(to_string(mode));
  }
  absl::StrAppend(
      &out, explore ? "Search: " : "Modes: ",
      explore ? "" : absl::StrJoin(modes, ", "), explore ? "" : "; ",
      markdown_cell(report::what_ran(result.cases, options)), ".\n\n");
  if (const std::string line = report::run_line(result, options);
      !line.empty()) {
    absl::StrAppend(&out, markdown_cell(line), ".\n\n");
  }

  if (explore) explore_cases(out, result, options);
  if (!explore) {
    out +=
        "| subject | scenario | mode | expected | observed | runs or schedules "
        "| "
        "verdict |\n";
    out += "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const CaseResult& c : result.cases) {
      absl::StrAppend(&out, "| ", markdown_cell(c.subject), " | ",
                      markdown_cell(c.scenario), " | ", to_string(c.mode),
                      " | ", markdown_cell(c.expected), " | ",
                      markdown_cell(report::observed_text(c)), " | ",
                      report::effort_text(c), " | ",
                      c.mismatch.empty() ? "ok" : "**MISMATCH**", " |\n");
    }

    out += "\n## Mismatches\n\n";
    if (std::all_of(result.cases.begin(), result.cases.end(),
                    [](const CaseResult& c) { return c.mismatch.empty(); })) {
      out += "None: every case produced the verdict it must.\n";
    }
    for (const CaseResult& c : result.cases) {
      if (c.mismatch.empty()) continue;
      absl::StrAppend(&out, "- **", case_line(c, run_kind),
                      "**: ", markdown_cell(c.mismatch),
                      " (observed: ", markdown_cell(report::observed_text(c)),
                      ")\n");
      if (!c.schedule_file.empty()) {
        absl::StrAppend(&out, "  - replay: ", markdown_cell(c.schedule_file),
                        "\n");
      }
    }
  }

  // Runs made twice because something outside racelab killed them: only
  // when there are any, so that a gate without them reads as before.
  std::string retried;
  for (const CaseResult& c : result.cases) {
    for (const RetriedRun& run : c.retried) {
      absl::StrAppend(&retried, "- ", case_line(c, run_kind), ": ",
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
            "- ", case_line(c, run_kind), ", ", report::runs_text(c, a->runs),
            ", ", to_string(a->finding.oracle), ": ",
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
        absl::StrAppend(&item,
                        c.mismatch.empty() || explore ? "" : " (**MISMATCH**)");
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
