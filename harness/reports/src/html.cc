// index.html: one self-contained page (inline CSS, JS and SVG; a Content
// Security Policy forbids any network access) with
//   - a header that says what ran (runs per stress case, searches and
//     schedules per controlled case);
//   - the case matrix, subjects x scenarios per mode and family, each cell
//     coloured by verdict (clean ok, caught ok, mismatch);
//   - per case: expected vs observed, the findings, the outcome histogram of
//     repeated runs (outcome -> runs) as a small bar chart as jcstress shows
//     it, and, for a case with a trace (the minimal failing schedule of a
//     controlled run), a swimlane: one lane per logical thread, one box per
//     event at its row (lock pairs folded into their operation's row, text
//     wrapped between words), lock holds as bars, findings in red.
// A person reads it, so it stays small (a full gate's page well under
// 300 KB): frames name functions as written in code (readable_symbol()), the
// store's own frames are open and the standard library's and racelab's
// folded behind a toggle, reports of one race (report::finding_group_key())
// are one finding with the others listed, a stack or log seen before on the
// page links to its first copy, and past the first few findings of a case
// each is one line. results.json keeps everything.
// Stable hooks for tests and styling: section#matrix, table.matrix
// td.cell[data-verdict], section.case[data-verdict][data-mode],
// li.finding[data-kind][data-reports], ol.stack.own li.user,
// details.frames (the folded stack), details.similar, svg.swimlane
// g.lane[data-thread] (rect.op, rect.result, rect.lock, rect.wait,
// rect.finding, rect.lock-hold, line.switch), svg.histogram
// g.bar[data-outcome]. Every string from a run is entity-escaped.
// For `racelab explore` (GateOptions::run_kind) the page speaks of searches:
// its title names the program, cases are found, clean or verified
// (data-verdict), a table of them replaces the matrix (html_explore.cc), and
// a found case shows its shrunk schedule before its findings.
// This file is the page; the swimlane and the histogram are in
// html_swimlane.cc, the explore parts in html_explore.cc, the CSS and the
// script in html_assets.cc.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "html_internal.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/report.h"
#include "racelab/symbol_names.h"
#include "report_internal.h"

namespace racelab {
namespace {

using html_internal::histogram_svg;
using html_internal::kScript;
using html_internal::kStyle;
using html_internal::swimlane_svg;
using report::html_escape;

constexpr std::size_t kMaxDetailBytes = 2 * 1024;
constexpr std::size_t kMaxSummaryBytes = 600;
constexpr std::size_t kMaxSimilarShown = 3;
constexpr std::size_t kMaxFindingsInFull = 6;  // per case, with their stacks
constexpr std::size_t kMinFoldedLibraryRun = 4;

std::string slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (alnum) {
      out.push_back(c);
    } else if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// Escaped text with a line-break opportunity after each '_' and '/', for
// long snake_case names in narrow table headers.
std::string breakable(const std::string& escaped) {
  std::string out;
  for (char c : escaped) {
    out.push_back(c);
    if (c == '_' || c == '/') out += "<wbr>";
  }
  return out;
}

// A file as the page shows it: "/usr/bin/../lib/gcc/.../../include/c++/12/x.h"
// is /usr/include/c++/12/x.h.
std::string file_text(const std::string& file) {
  if (!file.starts_with('/') || file.find("/..") == std::string::npos)
    return file;
  return std::filesystem::path(file).lexically_normal().string();
}

// A frame: its function as written in code and its file. Frames of the
// library and of racelab, folded, name their function only. In a stack's list
// the names need no <code> (the list is monospace).
std::string frame_html(const Frame& f, bool parameters = true,
                       bool code = true) {
  std::string s = html_escape(report::frame_name(f, parameters));
  if (code) s = absl::StrCat("<code>", s, "</code>");
  if (!f.file.empty()) {
    absl::StrAppend(&s, " <span class=\"file\">",
                    html_escape(file_text(f.file)));
    if (f.line > 0) absl::StrAppend(&s, ":", f.line);
    s += "</span>";
  }
  return s;
}

// The folded stacks already on the page, by content: a stack seen again
// (the same race in another mode or scenario) links to its first copy.
// The same goes for a detail text (a dead run's log, attached to each of its
// findings).
struct PageIndex {
  std::map<std::string, int> stacks;
  std::map<std::string, int> details;
};

// One stack: the store's own frames open, numbered as in the stack; the
// whole stack down to the store's caller folded behind a toggle.
void stack_html(std::string& out, const std::vector<Frame>& stack,
                PageIndex& page) {
  if (stack.empty()) return;
  const report::StackView view = report::stack_view(stack);
  out += "<ol class=\"stack own\">";
  for (std::size_t i : view.shown) {
    absl::StrAppend(&out, "<li value=\"", i, "\" class=\"",
                    to_string(stack[i].origin), "\">",
                    frame_html(stack[i], true, false), "</li>");
  }
  out += "</ol>";
  if (view.folded_end <= view.shown.size() && view.folded_end == stack.size())
    return;  // nothing more to show
  std::string title = absl::StrCat("whole stack (", view.folded_end,
                                   view.folded_end == 1 ? " frame" : " frames");
  if (view.library > 0)
    absl::StrAppend(&title, ", ", view.library, " standard library");
  if (view.racelab > 0) absl::StrAppend(&title, ", ", view.racelab, " racelab");
  title += ")";
  // A long run of library frames shows its ends: where the access happened
  // and the call that led into the library.
  std::string frames;
  bool renumber = false;
  for (std::size_t i = 0; i < view.folded_end; ++i) {
    std::size_t run = 0;
    while (i + run < view.folded_end &&
           stack[i + run].origin == FrameOrigin::kLibrary) {
      ++run;
    }
    if (run >= kMinFoldedLibraryRun) {
      absl::StrAppend(&frames, "<li class=\"library\"",
                      renumber ? absl::StrCat(" value=\"", i, "\"") : "", ">",
                      frame_html(stack[i], false, false),
                      "</li><li class=\"more\">", run - 2,
                      " more standard library frames</li><li value=\"",
                      i + run - 1, "\" class=\"library\">",
                      frame_html(stack[i + run - 1], false, false), "</li>");
      i += run - 1;
      renumber = true;
      continue;
    }
    // Names only: the store's frames are shown in full above.
    absl::StrAppend(&frames, "<li",
                    renumber ? absl::StrCat(" value=\"", i, "\"") : "",
                    " class=\"", to_string(stack[i].origin), "\">",
                    frame_html(stack[i], false, false), "</li>");
    renumber = false;
  }
  if (view.folded_end < stack.size()) {
    const std::size_t rest = stack.size() - view.folded_end;
    absl::StrAppend(&frames, "<li class=\"more\">", rest,
                    rest == 1 ? " more frame" : " more frames",
                    " (the thread's start) in results.json</li>");
  }
  auto [it, first] =
      page.stacks.try_emplace(frames, static_cast<int>(page.stacks.size()) + 1);
  if (!first) {
    absl::StrAppend(&out, "<p class=\"same-stack\">", title,
                    ": as in <a href=\"#stack-", it->second, "\">stack ",
                    it->second, "</a></p>");
    return;
  }
  absl::StrAppend(&out, "<details class=\"frames\" id=\"stack-", it->second,
                  "\"><summary>", title, ", stack ", it->second,
                  "</summary><ol class=\"stack full\" start=\"0\">", frames,
                  "</ol></details>");
}

void findings_html(std::string& out, const CaseResult& c, PageIndex& page) {
  if (c.findings.empty()) return;
  // Findings that read as one are shown once, with the others listed.
  std::vector<std::vector<const AggregatedFinding*>> groups;
  std::map<std::string, std::size_t> group_of;
  for (const AggregatedFinding& a : c.findings) {
    auto [it, added] = group_of.try_emplace(
        report::finding_group_key(a.finding), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&a);
  }
  // What fails the case first, then the findings reported most.
  const auto unexpected = [&](const AggregatedFinding* a) {
    return !c.mismatch.empty() && !report::is_expected_kind(c, a->finding.kind);
  };
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const auto& x, const auto& y) {
                     if (unexpected(x[0]) != unexpected(y[0]))
                       return unexpected(x[0]);
                     return x.size() > y.size();
                   });
  out += "<ul class=\"findings\">\n";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::vector<const AggregatedFinding*>& group = groups[g];
    const AggregatedFinding& a = *group.front();
    const Finding& f = a.finding;
    const bool error = unexpected(&a);
    // Past the first few, a finding is one line: its stacks are those of
    // its kind above, or in results.json.
    const bool brief = g >= kMaxFindingsInFull;
    absl::StrAppend(
        &out, "<li class=\"finding", brief ? " brief" : "",
        error ? " unexpected" : "", "\" data-kind=\"", to_string(f.kind),
        "\" data-reports=\"", group.size(), "\"><span class=\"kind\">",
        to_string(f.kind), "</span> <span class=\"oracle\">",
        to_string(f.oracle), "</span> <span class=\"runs\">",
        report::runs_text(c, a.runs), "</span> <span class=\"summary\">",
        html_escape(report::truncate_utf8(f.summary, kMaxSummaryBytes)),
        "</span>");
    if (brief) {
      if (group.size() > 1) {
        absl::StrAppend(&out, " <span class=\"note\">and ", group.size() - 1,
                        " similar</span>");
      }
      absl::StrAppend(&out, "</li>\n");
      continue;
    }
    if (group.size() > 1) {
      const std::size_t others = group.size() - 1;
      absl::StrAppend(&out, "<details class=\"similar\"><summary>and ", others,
                      others == 1 ? " similar report" : " similar reports",
                      " at the same store frames</summary><ul>");
      for (std::size_t i = 1; i < group.size() && i <= kMaxSimilarShown; ++i) {
        absl::StrAppend(&out, "<li><span class=\"runs\">",
                        report::runs_text(c, group[i]->runs), "</span> ",
                        html_escape(report::truncate_utf8(
                            group[i]->finding.summary, kMaxSummaryBytes)),
                        "</li>");
      }
      if (others > kMaxSimilarShown) {
        absl::StrAppend(&out, "<li class=\"note\">and ",
                        others - kMaxSimilarShown,
                        " more in results.json</li>");
      }
      out += "</ul></details>";
    }
    if (f.subject_frame && f.accesses.empty()) {  // else in the stacks
      absl::StrAppend(&out, "<div class=\"frame\">at ",
                      frame_html(*f.subject_frame), "</div>");
    }
    for (const Access& acc : f.accesses) {
      absl::StrAppend(
          &out, "<div class=\"access\"><span class=\"what\">",
          html_escape(acc.what.empty() ? "access" : acc.what), "</span>",
          acc.thread >= 0 ? absl::StrCat(" by thread ", acc.thread) : "");
      stack_html(out, acc.stack, page);
      out += "</div>";
    }
    // A sanitizer's detail text is its stacks again, shown above.
    const bool detail_is_stacks =
        f.oracle == Oracle::kTsan && !f.accesses.empty();
    if (!f.detail.empty() && !detail_is_stacks) {
      auto [it, first] = page.details.try_emplace(
          f.detail, static_cast<int>(page.details.size()) + 1);
      if (first) {
        absl::StrAppend(
            &out, "<details class=\"detail\" id=\"detail-", it->second,
            "\"><summary>details</summary><pre>",
            html_escape(report::truncate_utf8(
                readable_sanitizer_text(f.detail), kMaxDetailBytes,
                "\n[... truncated; the whole text is in results.json]")),
            "</pre></details>");
      } else {
        absl::StrAppend(&out,
                        "<p class=\"same-stack\">details: as in <a "
                        "href=\"#detail-",
                        it->second, "\">the report above</a></p>");
      }
    }
    out += "</li>\n";
  }
  out += "</ul>\n";
}

}  // namespace

std::string html_report(const GateResult& result, const GateOptions& options) {
  const std::size_t n = result.cases.size();
  const int m = result.mismatches;
  const bool explore = report::is_explore(options);
  const std::string title = report::report_title(result, options);
  const std::string headline = report::headline_text(result, options);
  const std::vector<Mode> modes =
      report::report_modes(result.cases, options.modes);

  // Stable, unique ids per case.
  std::vector<std::string> ids;
  std::set<std::string> used;
  for (const CaseResult& c : result.cases) {
    std::string id = absl::StrCat(
        "case-",
        slug(absl::StrCat(to_string(c.mode), "-", c.subject, "-", c.scenario)));
    std::string unique = id;
    for (int k = 2; used.count(unique) != 0; ++k)
      unique = absl::StrCat(id, "-", k);
    used.insert(unique);
    ids.push_back(unique);
  }

  std::string out;
  out.reserve(64 * 1024);
  absl::StrAppend(
      &out,
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src "
      "data:\">\n"
      "<meta name=\"racelab-run-id\" content=\"",
      html_escape(result.run_id), "\">\n<title>", html_escape(title), ": ",
      headline, "</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n<header>\n<h1>", html_escape(title),
      "</h1>\n<p class=\"headline ", m == 0 ? "passed" : "failed",
      "\" id=\"headline\">", headline, "</p>\n<p class=\"meta\">");
  std::vector<std::string> mode_names;
  for (Mode mode : modes) mode_names.push_back(to_string(mode));
  absl::StrAppend(
      &out, explore ? "search: " : "modes ",
      explore ? "" : absl::StrJoin(mode_names, ", "), explore ? "" : "; ",
      html_escape(report::what_ran(result.cases, options)), "</p>\n");
  if (const std::string line = report::run_line(result, options);
      !line.empty()) {
    absl::StrAppend(&out, "<p class=\"meta\" id=\"run\">", html_escape(line),
                    "</p>\n");
  }
  if (explore) {
    html_internal::explore_legend_html(out);
    out += "</header>\n<main>\n";
  } else {
    out +=
        "<p class=\"legend\"><span class=\"clean-ok\">clean, as expected</span>"
        "<span class=\"caught-ok\">caught, as expected</span>"
        "<span class=\"mismatch\">mismatch</span></p>\n"
        "<p class=\"filters\"><label><input type=\"checkbox\" "
        "id=\"only-mismatches\"> only "
        "mismatches</label><label><input type=\"checkbox\" id=\"only-traces\"> "
        "only cases "
        "with a trace</label></p>\n</header>\n<main>\n";
  }

  // Mismatches first: what a reviewer must look at.
  if (explore) {
    html_internal::explore_overview_html(out, result, options, ids);
  } else if (m > 0 || std::any_of(result.cases.begin(), result.cases.end(),
                                  [](const CaseResult& c) {
                                    return !c.mismatch.empty();
                                  })) {
    out += "<section id=\"mismatches\">\n<h2>Mismatches</h2>\n<ul>\n";
    for (std::size_t i = 0; i < n; ++i) {
      const CaseResult& c = result.cases[i];
      if (c.mismatch.empty()) continue;
      absl::StrAppend(&out, "<li><a href=\"#", ids[i], "\">",
                      html_escape(report::case_title(c)),
                      "</a>: ", html_escape(report::mismatch_message(c)),
                      "</li>\n");
    }
    out += "</ul>\n</section>\n";
  }

  // The matrix: per mode, per family, subjects x scenarios.
  if (!explore) out += "<section id=\"matrix\">\n<h2>Case matrix</h2>\n";
  for (Mode mode : explore ? std::vector<Mode>{} : modes) {
    std::vector<std::string> families;
    for (const CaseResult& c : result.cases) {
      if (c.mode == mode && std::find(families.begin(), families.end(),
                                      c.family) == families.end()) {
        families.push_back(c.family);
      }
    }
    absl::StrAppend(&out, "<h3>", to_string(mode), "</h3>\n");
    if (families.empty())
      out += "<p class=\"note\">no cases in this mode</p>\n";
    for (const std::string& family : families) {
      std::vector<std::string> subjects;
      std::vector<std::string> scenarios;
      std::map<std::pair<std::string, std::string>, std::size_t> cell;
      for (std::size_t i = 0; i < n; ++i) {
        const CaseResult& c = result.cases[i];
        if (c.mode != mode || c.family != family) continue;
        if (std::find(subjects.begin(), subjects.end(), c.subject) ==
            subjects.end()) {
          subjects.push_back(c.subject);
        }
        if (std::find(scenarios.begin(), scenarios.end(), c.scenario) ==
            scenarios.end()) {
          scenarios.push_back(c.scenario);
        }
        cell.emplace(std::make_pair(c.subject, c.scenario), i);
      }
      absl::StrAppend(
          &out, "<table class=\"matrix\" data-mode=\"", to_string(mode),
          "\" data-family=\"", html_escape(family), "\">\n<caption>",
          html_escape(family.empty() ? std::string("(no family)") : family),
          "</caption>\n<thead><tr><th>subject \\ scenario</th>");
      for (const std::string& s : scenarios)
        absl::StrAppend(&out, "<th>", breakable(html_escape(s)), "</th>");
      out += "</tr></thead>\n<tbody>\n";
      for (const std::string& subject : subjects) {
        absl::StrAppend(&out, "<tr><th scope=\"row\">", html_escape(subject),
                        "</th>");
        for (const std::string& scenario : scenarios) {
          auto it = cell.find({subject, scenario});
          if (it == cell.end()) {
            out += "<td class=\"na\"></td>";
            continue;
          }
          const CaseResult& c = result.cases[it->second];
          const char* verdict = report::to_string(report::verdict_of(c));
          absl::StrAppend(
              &out, "<td class=\"cell ", verdict, "\" data-verdict=\"", verdict,
              "\" title=\"", html_escape(report::case_title(c)), ": expected ",
              html_escape(c.expected), ", observed ",
              html_escape(report::observed_text(c)), "\"><a href=\"#",
              ids[it->second], "\">", html_escape(report::observed_text(c)),
              "<small>", report::effort_text(c),
              c.mismatch.empty() ? "" : " MISMATCH", "</small></a></td>");
        }
        out += "</tr>\n";
      }
      out += "</tbody>\n</table>\n";
    }
  }
  if (!explore) out += "</section>\n";

  // One section per case.
  out += "<section id=\"cases\">\n<h2>Cases</h2>\n";
  PageIndex page;
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult& c = result.cases[i];
    const report::ExploreVerdict found_clean = report::explore_verdict_of(c);
    const char* verdict = explore ? report::to_string(found_clean)
                                  : report::to_string(report::verdict_of(c));
    absl::StrAppend(
        &out, "<section class=\"case ", verdict, "\" id=\"", ids[i],
        "\" data-verdict=\"", verdict, "\" data-mode=\"", to_string(c.mode),
        "\" data-subject=\"", html_escape(c.subject), "\" data-scenario=\"",
        html_escape(c.scenario), "\"",
        c.schedule.trace.rows.empty() ? "" : " data-has-trace", ">\n<h3>",
        explore ? html_escape(report::case_name(c, options.run_kind))
                : absl::StrCat(html_escape(c.subject), " × ",
                               html_escape(c.scenario), " (", to_string(c.mode),
                               ")"),
        " <span class=\"badge ", verdict, "\">",
        explore ? (found_clean == report::ExploreVerdict::kFound ? "FOUND"
                                                                 : verdict)
        : c.mismatch.empty() ? "ok"
                             : "MISMATCH",
        "</span></h3>\n<dl class=\"facts\">");
    if (explore) {
      html_internal::explore_facts_html(out, c, options.run_kind);
    } else {
      absl::StrAppend(&out, "<dt>expected</dt><dd>", html_escape(c.expected),
                      "</dd><dt>observed</dt><dd>",
                      html_escape(report::observed_text(c)), "</dd>");
      if (c.mode == Mode::kControlled) {
        absl::StrAppend(
            &out, "<dt>searches caught</dt><dd>", c.runs_with_finding, "/",
            c.runs, "</dd><dt>schedules tried</dt><dd>", c.schedules, "</dd>");
        if (c.first_failing >= 0) {
          absl::StrAppend(&out, "<dt>first failing schedule</dt><dd>",
                          c.first_failing + 1, "</dd>");
        }
      } else {
        absl::StrAppend(&out, "<dt>runs caught</dt><dd>", c.runs_with_finding,
                        "/", c.runs, "</dd>");
      }
      absl::StrAppend(&out, "<dt>time</dt><dd>",
                      report::format_seconds(c.seconds), " s</dd>");
      if (!c.schedule_file.empty()) {
        absl::StrAppend(&out, "<dt>schedule</dt><dd><code>",
                        html_escape(c.schedule_file), "</code></dd>");
      }
    }
    if (!c.first_failure_log.empty()) {
      std::string log = absl::StrCat(c.subject, "__", c.scenario, ".",
                                     to_string(c.mode), ".log");
      std::replace(log.begin(), log.end(), '/', '_');
      absl::StrAppend(&out, "<dt>log</dt><dd><a href=\"logs/",
                      html_escape(report::percent_encode_path(log)),
                      "\">first failing run</a></dd>");
    }
    out += "</dl>\n";
    if (!c.mismatch.empty()) {
      absl::StrAppend(
          &out, "<p class=\"reason\">",
          html_escape(explore ? report::explore_outcome(c) : c.mismatch),
          "</p>\n");
    }
    // A finding of explore reads from its shrunk schedule: the trace first.
    const bool trace_first = explore && !c.schedule.trace.rows.empty();
    if (trace_first) {
      out += options.run.request.shrink ? "<h4>Shrunk failing schedule</h4>\n"
                                        : "<h4>Failing schedule</h4>\n";
      swimlane_svg(out, c);
      out += "<h4>Findings</h4>\n";
    }
    findings_html(out, c, page);
    // The outcomes of repeated runs, as jcstress shows them; one controlled
    // search has one outcome, which the facts above give.
    if (c.runs != 1) {
      out += "<h4>Outcomes</h4>\n";
      histogram_svg(out, c);
    }
    if (!c.schedule.trace.rows.empty() && !trace_first) {
      out += "<h4>Failing schedule</h4>\n";
      swimlane_svg(out, c);
    }
    out += "</section>\n";
  }
  absl::StrAppend(&out, "</section>\n</main>\n<script>", kScript,
                  "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace racelab
