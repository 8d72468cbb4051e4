// The parts of index.html that differ for `racelab explore` (a whole
// program, or each test of a test binary): the legend and filter in explore's
// words, the findings with the schedule each was found at, a table of the
// cases (found, clean or verified, the schedules, the time) in place of the
// gate's case matrix, and a case's facts. html.cc writes the rest.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "html_internal.h"
#include "report_internal.h"

namespace racelab::html_internal {

using report::html_escape;

void explore_legend_html(std::string& out) {
  out +=
      "<p class=\"legend\"><span class=\"found\">found</span>"
      "<span class=\"clean\">clean</span>"
      "<span class=\"verified\">verified</span></p>\n"
      "<p class=\"filters\"><label><input type=\"checkbox\" "
      "id=\"only-mismatches\"> only findings</label><label><input "
      "type=\"checkbox\" id=\"only-traces\"> only cases with a "
      "trace</label></p>\n";
}

void explore_overview_html(std::string& out, const GateResult& result,
                           const GateOptions& options,
                           const std::vector<std::string>& ids) {
  const std::size_t n = result.cases.size();
  std::string found;
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult& c = result.cases[i];
    if (report::explore_verdict_of(c) != report::ExploreVerdict::kFound)
      continue;
    absl::StrAppend(&found, "<li><a href=\"#", ids[i], "\">",
                    html_escape(report::case_name(c, options.run_kind)),
                    "</a>: ", html_escape(report::explore_outcome(c)),
                    "</li>\n");
  }
  if (!found.empty()) {
    absl::StrAppend(&out,
                    "<section id=\"findings\">\n<h2>Findings</h2>\n<ul>\n",
                    found, "</ul>\n</section>\n");
  }
  out +=
      "<section id=\"overview\">\n<h2>Searches</h2>\n<table "
      "class=\"cases\">\n<thead><tr><th>";
  out += options.run_kind == RunKind::kExploreTests ? "test" : "program";
  out +=
      "</th><th>verdict</th><th>search</th><th>time</th></tr></thead>\n"
      "<tbody>\n";
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult& c = result.cases[i];
    const char* verdict = report::to_string(report::explore_verdict_of(c));
    absl::StrAppend(&out, "<tr><td class=\"name\"><a href=\"#", ids[i], "\">",
                    html_escape(report::case_name(c, options.run_kind)),
                    "</a></td><td class=\"cell ", verdict, "\" data-verdict=\"",
                    verdict, "\">", verdict, "</td><td>",
                    html_escape(report::explore_outcome(c)), "</td><td>",
                    report::format_seconds(c.seconds), " s</td></tr>\n");
  }
  out += "</tbody>\n</table>\n</section>\n";
}

void explore_facts_html(std::string& out, const CaseResult& c, RunKind kind) {
  absl::StrAppend(&out, "<dt>verdict</dt><dd>",
                  report::to_string(report::explore_verdict_of(c)),
                  "</dd><dt>search</dt><dd>",
                  html_escape(report::explore_outcome(c)), "</dd>");
  if (!c.strategy.empty()) {
    absl::StrAppend(&out, "<dt>strategy</dt><dd>", html_escape(c.strategy),
                    ", up to ", c.budget, " schedules</dd>");
  }
  absl::StrAppend(&out, "<dt>time</dt><dd>", report::format_seconds(c.seconds),
                  " s</dd>");
  if (kind == RunKind::kExploreTests) {
    absl::StrAppend(&out, "<dt>test</dt><dd><code>", html_escape(c.scenario),
                    "</code></dd>");
  }
  if (!c.program.empty()) {
    absl::StrAppend(&out, "<dt>program</dt><dd><code>", html_escape(c.program),
                    "</code></dd>");
  }
  if (!c.arguments.empty()) {
    absl::StrAppend(&out, "<dt>arguments</dt><dd><code>",
                    html_escape(absl::StrJoin(c.arguments, " ")),
                    "</code></dd>");
  }
  if (!c.schedule_file.empty()) {
    absl::StrAppend(&out, "<dt>schedule</dt><dd><code>",
                    html_escape(c.schedule_file),
                    "</code> (<code>racelab replay</code> it)</dd>");
  }
}

}  // namespace racelab::html_internal
