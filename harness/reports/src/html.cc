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
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/report.h"
#include "racelab/symbol_names.h"
#include "report_internal.h"

namespace racelab {
namespace {

using report::html_escape;

constexpr std::size_t kMaxDetailBytes = 2 * 1024;
constexpr std::size_t kMaxTraceRows = 1500;
constexpr int kMaxLanes = 64;
constexpr std::size_t kMaxBoxLines = 3;
constexpr std::size_t kMaxSummaryBytes = 600;
constexpr std::size_t kMaxSimilarShown = 3;
constexpr std::size_t kMaxFindingsInFull = 6;  // per case, with their stacks
constexpr std::size_t kMinFoldedLibraryRun = 4;

// Swimlane geometry, in SVG user units (pixels).
constexpr int kAxisWidth = 52;
constexpr int kLaneWidth = 230;
constexpr int kLaneGap = 8;
constexpr int kHeaderHeight = 26;
constexpr int kRowHeight = 22;
constexpr int kBoxHeight = 18;
constexpr int kLineHeight = 13;  // each further line of a box
constexpr int kHoldWidth = 5;
constexpr double kCharWidth = 7.0;  // 11px monospace, with a margin

// Histogram geometry.
constexpr int kBarMaxWidth = 260;
constexpr int kBarHeight = 16;
constexpr int kBarGap = 4;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.ends_with(".0")) s.resize(s.size() - 2);
  return s;
}

// At most `max_chars` code points of `text`, with "…" when cut.
std::string clip(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (chars == max_chars)
      return absl::StrCat(std::string(text.substr(0, i)), "…");
    ++chars;
  }
  return std::string(text);
}

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

// How an outcome of a run ("clean", "data_race+crash") reads against the
// case's expectation, as jcstress grades its outcomes.
const char* outcome_grade(const CaseResult& c, const KindSet& outcome) {
  const std::vector<FindingKind> expected = report::expected_kinds(c);
  const std::vector<FindingKind> kinds = outcome.members();
  if (kinds.empty()) return expected.empty() ? "acceptable" : "missed";
  if (expected.empty()) return "forbidden";
  const bool any_other =
      std::any_of(kinds.begin(), kinds.end(), [&](FindingKind k) {
        return std::find(expected.begin(), expected.end(), k) == expected.end();
      });
  if (!any_other) return "acceptable";
  // A kind outside the expected list: allowed as a consequence of the bug
  // (the expectation's may_also) unless the case failed.
  return c.mismatch.empty() ? "allowed" : "forbidden";
}

void histogram_svg(std::string& out, const CaseResult& c) {
  const char* unit = c.mode == Mode::kControlled
                         ? (c.runs == 1 ? "search" : "searches")
                         : (c.runs == 1 ? "run" : "runs");
  if (c.histogram.empty()) {
    out += "<p class=\"histogram-empty\">no runs</p>\n";
    return;
  }
  int max_runs = 1;
  std::size_t max_label = 4;
  for (const auto& [outcome, runs] : c.histogram) {
    max_runs = std::max(max_runs, runs);
    max_label = std::max(max_label,
                         std::min<std::size_t>(to_string(outcome).size(), 48));
  }
  const int label_width =
      static_cast<int>(static_cast<double>(max_label) * kCharWidth) + 12;
  const int width = label_width + kBarMaxWidth + 60;
  const int height =
      static_cast<int>(c.histogram.size()) * (kBarHeight + kBarGap) + kBarGap;
  absl::StrAppend(
      &out,
      "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"",
      width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ", height,
      "\" role=\"img\" aria-label=\"outcomes of ", c.runs, " ", unit, "\">\n");
  int y = kBarGap;
  for (const auto& [outcome, runs] : c.histogram) {
    const double w =
        std::max(1.0, static_cast<double>(kBarMaxWidth) * runs / max_runs);
    const std::string grade = outcome_grade(c, outcome);
    const std::string name = to_string(outcome);
    absl::StrAppend(&out, "<g class=\"bar ", grade, "\" data-outcome=\"",
                    html_escape(name), "\" data-runs=\"", runs, "\"><title>",
                    html_escape(name), ": ", runs, " of ", c.runs, " ", unit,
                    " (", grade, ")</title>");
    absl::StrAppend(&out, "<text class=\"outcome\" x=\"", label_width - 6,
                    "\" y=\"", y + kBarHeight - 4, "\">",
                    html_escape(clip(name, 48)), "</text>");
    absl::StrAppend(&out, "<rect x=\"", label_width, "\" y=\"", y,
                    "\" width=\"", num(w), "\" height=\"", kBarHeight, "\"/>");
    absl::StrAppend(&out, "<text class=\"count\" x=\"",
                    num(label_width + w + 5), "\" y=\"", y + kBarHeight - 4,
                    "\">", runs, "</text></g>\n");
    y += kBarHeight + kBarGap;
  }
  out += "</svg>\n";
}

// What a trace row is in the swimlane, from its typed kind.
enum class Event {
  kOp,
  kResult,
  kAcquire,
  kRelease,
  kWait,
  kSwitch,
  kFinding,
  kLockPair,  // a lock taken and released in one turn, folded (shown_rows())
};

Event event_of(const sched::TraceRow& row) {
  switch (row.kind) {
    case sched::TraceKind::kOperation:
      return row.is_result() ? Event::kResult : Event::kOp;
    case sched::TraceKind::kLockAcquired:
      return Event::kAcquire;
    case sched::TraceKind::kLockReleased:
      return Event::kRelease;
    case sched::TraceKind::kLockWaited:
      return Event::kWait;
    case sched::TraceKind::kSwitch:
      return Event::kSwitch;
    case sched::TraceKind::kException:
      return Event::kFinding;
  }
  return Event::kOp;
}

const char* event_class(Event e) {
  switch (e) {
    case Event::kOp:
      return "op";
    case Event::kResult:
      return "result";
    case Event::kAcquire:
    case Event::kRelease:
    case Event::kLockPair:
      return "lock";
    case Event::kWait:
      return "wait";
    case Event::kSwitch:
      return "switch";
    case Event::kFinding:
      return "finding";
  }
  return "op";
}

struct Hold {
  int thread;
  std::string lock;
  std::size_t from;
  std::size_t to;  // inclusive row index
  bool released;
  int depth;
};

// A row as the swimlane draws it: a trace row, or a folded lock pair.
struct ShownRow {
  int step = 0;
  int thread = 0;
  Event event = Event::kOp;
  std::string text;  // with the folded lock pairs
  std::string lock;  // lock rows: the lock's name
};

// Pairs each lock acquisition with the release of the same lock by the same
// thread; traces without release rows end a hold at the thread's next result
// row. A hold never released lasts to the end of the trace.
std::vector<Hold> lock_holds(const std::vector<ShownRow>& rows,
                             std::size_t count) {
  const bool explicit_release = std::any_of(
      rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(count),
      [](const ShownRow& row) { return row.event == Event::kRelease; });
  std::vector<Hold> holds;
  std::map<int, std::vector<std::size_t>> open;  // thread -> indexes into holds
  for (std::size_t i = 0; i < count; ++i) {
    const ShownRow& row = rows[i];
    std::vector<std::size_t>& mine = open[row.thread];
    const Event event = row.event;
    if (event == Event::kRelease) {
      const std::string& name = row.lock;
      auto it = std::find_if(mine.rbegin(), mine.rend(), [&](std::size_t h) {
        return holds[h].lock == name;
      });
      if (it == mine.rend() && !mine.empty()) it = mine.rbegin();
      if (it != mine.rend()) {
        holds[*it].to = i;
        holds[*it].released = true;
        mine.erase(std::next(it).base());
      }
    } else if (event == Event::kAcquire) {
      holds.push_back({row.thread, row.lock, i, count - 1, false,
                       static_cast<int>(mine.size())});
      mine.push_back(holds.size() - 1);
    } else if (event == Event::kResult && !explicit_release) {
      for (std::size_t h : mine) {
        holds[h].to = i;
        holds[h].released = true;
      }
      mine.clear();
    }
  }
  return holds;
}

// The rows the swimlane draws: lock pairs folded as in the trace table
// (sched::fold_lock_pairs()); a pair of its own becomes a lock pair row.
std::vector<ShownRow> shown_rows(const sched::Trace& trace) {
  std::vector<ShownRow> rows;
  for (const sched::FoldedRow& f :
       sched::fold_lock_pairs(sched::fold_inputs(trace))) {
    const sched::TraceRow& row = trace.rows[f.row];
    rows.push_back({row.step, row.thread,
                    f.lock_pair ? Event::kLockPair : event_of(row),
                    f.text(row.text), row.lock});
  }
  return rows;
}

// The text of a box: lines of at most `max_chars`, at word boundaries; at
// most kMaxBoxLines, the last one clipped with "…" when there is more.
std::vector<std::string> box_lines(const std::string& text,
                                   std::size_t max_chars) {
  std::vector<std::string> lines = sched::wrap_text(text, max_chars);
  if (lines.size() > kMaxBoxLines) {
    lines.resize(kMaxBoxLines);
    lines.back() = clip(lines.back() + " …", max_chars);
  }
  return lines;
}

void swimlane_svg(std::string& out, const CaseResult& c) {
  const std::vector<ShownRow> rows = shown_rows(c.schedule.trace);
  const std::size_t count = std::min(rows.size(), kMaxTraceRows);
  int lanes = std::max(1, c.schedule.trace.thread_count);
  for (std::size_t i = 0; i < count; ++i) {
    if (rows[i].thread >= 0 && rows[i].thread < kMaxLanes) {
      lanes = std::max(lanes, rows[i].thread + 1);
    }
  }
  lanes = std::min(lanes, kMaxLanes);
  const std::size_t max_chars =
      static_cast<std::size_t>((kLaneWidth - 22) / kCharWidth);
  // Rows grow with the lines of their box.
  std::vector<std::vector<std::string>> lines(count);
  std::vector<int> row_top(count + 1, kHeaderHeight);
  for (std::size_t i = 0; i < count; ++i) {
    if (rows[i].event == Event::kSwitch) {
      lines[i] = {clip(rows[i].text, max_chars)};
    } else {
      lines[i] = box_lines(rows[i].text, max_chars);
    }
    row_top[i + 1] = row_top[i] + kRowHeight +
                     static_cast<int>(lines[i].size() - 1) * kLineHeight;
  }
  const auto box_height = [&](std::size_t i) {
    return kBoxHeight + static_cast<int>(lines[i].size() - 1) * kLineHeight;
  };
  const int width = kAxisWidth + lanes * (kLaneWidth + kLaneGap);
  const int height = row_top[count] + 8;
  const auto lane_x = [](int t) {
    return kAxisWidth + t * (kLaneWidth + kLaneGap);
  };

  absl::StrAppend(
      &out,
      "<div class=\"swimlane-wrap\"><svg class=\"swimlane\" "
      "xmlns=\"http://www.w3.org/2000/svg\" width=\"",
      width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ", height,
      "\" data-threads=\"", lanes, "\" data-rows=\"", count,
      "\" data-trace-rows=\"", c.schedule.trace.rows.size(),
      "\" role=\"img\" aria-label=\"trace of the failing schedule\">\n");

  // Step axis: a label where a new step (scheduling decision) begins, and a
  // rule across the lanes above it.
  std::string rules;
  absl::StrAppend(&out, "<g class=\"axis\" transform=\"translate(",
                  kAxisWidth - 8, " 0)\">");
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && rows[i].step == rows[i - 1].step) continue;
    absl::StrAppend(&out, "<text y=\"", row_top[i] + kBoxHeight - 4, "\">",
                    rows[i].step, "</text>");
    if (i > 0) {
      absl::StrAppend(&rules, "M", kAxisWidth, " ", row_top[i] - 2, "H", width);
    }
  }
  out += "</g>";
  if (!rules.empty())
    absl::StrAppend(&out, "<path class=\"step-rule\" d=\"", rules, "\"/>");
  out += "\n";

  // Findings: a red band across every lane at their row.
  for (std::size_t i = 0; i < count; ++i) {
    if (rows[i].event != Event::kFinding) continue;
    absl::StrAppend(&out, "<rect class=\"finding-band\" x=\"", kAxisWidth,
                    "\" y=\"", row_top[i] - 2, "\" width=\"",
                    width - kAxisWidth, "\" height=\"",
                    row_top[i + 1] - row_top[i], "\"/>\n");
  }

  const std::vector<Hold> holds = lock_holds(rows, count);
  for (int t = 0; t < lanes; ++t) {
    const int x = lane_x(t);
    absl::StrAppend(&out, "<g class=\"lane\" data-thread=\"", t, "\">");
    absl::StrAppend(&out, "<rect class=\"lane-bg\" x=\"", x,
                    "\" y=\"0\" width=\"", kLaneWidth, "\" height=\"", height,
                    "\"/>");
    absl::StrAppend(&out, "<text class=\"lane-title\" x=\"", x + kLaneWidth / 2,
                    "\" y=\"17\" text-anchor=\"middle\">thread ", t,
                    "</text>\n");
    for (const Hold& h : holds) {
      if (h.thread != t) continue;
      const int hx = x + 2 + h.depth * (kHoldWidth + 2);
      const int y1 = row_top[h.from];
      const int y2 = row_top[h.to] + box_height(h.to);
      absl::StrAppend(&out, "<rect class=\"lock-hold",
                      h.released ? "" : " unreleased", "\" data-lock=\"",
                      html_escape(h.lock), "\" x=\"", hx, "\" y=\"", y1,
                      "\" width=\"", kHoldWidth, "\" height=\"", y2 - y1,
                      "\"><title>thread ", t, " holds '", html_escape(h.lock),
                      "' from step ", rows[h.from].step,
                      h.released ? absl::StrCat(" to step ", rows[h.to].step)
                                 : std::string(" to the end (never released)"),
                      "</title></rect>\n");
    }
    for (std::size_t i = 0; i < count; ++i) {
      const ShownRow& row = rows[i];
      if (row.thread != t) continue;
      const Event event = row.event;
      const int y = row_top[i];
      // The full text as a tooltip, when the box does not show all of it.
      std::string title;
      if (absl::StrJoin(lines[i], " ") != row.text) {
        title = absl::StrCat("<title>", html_escape(row.text), "</title>");
      }
      if (event == Event::kSwitch) {
        absl::StrAppend(&out, "<g class=\"event switch\">", title,
                        "<line class=\"switch\" x1=\"", x + 14, "\" x2=\"",
                        x + kLaneWidth - 4, "\" y1=\"", y + kBoxHeight / 2,
                        "\" y2=\"", y + kBoxHeight / 2, "\"/><text x=\"",
                        x + 18, "\" y=\"", y + kBoxHeight / 2 - 2, "\">",
                        html_escape(lines[i][0]), "</text></g>\n");
        continue;
      }
      const char* cls = event_class(event);
      absl::StrAppend(&out, "<g class=\"event ", cls, "\">", title,
                      "<rect class=\"", cls, "\" x=\"", x + 14, "\" y=\"", y,
                      "\" width=\"", kLaneWidth - 18, "\" height=\"",
                      box_height(i), "\"/><text x=\"", x + 19, "\" y=\"",
                      y + kBoxHeight - 5, "\">");
      if (lines[i].size() == 1) {
        out += html_escape(lines[i][0]);
      } else {
        for (std::size_t l = 0; l < lines[i].size(); ++l) {
          absl::StrAppend(&out, "<tspan x=\"", x + 19, "\" dy=\"",
                          l == 0 ? 0 : kLineHeight, "\">",
                          html_escape(lines[i][l]), "</tspan>");
        }
      }
      out += "</text></g>\n";
    }
    out += "</g>\n";
  }
  out += "</svg></div>\n";
  if (rows.size() > count) {
    absl::StrAppend(&out, "<p class=\"note\">The trace has ", rows.size(),
                    " rows; the first ", count,
                    " are drawn. Replay the schedule for the rest.</p>\n");
  }
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

constexpr const char* kStyle = R"css(
:root { --ok:#1e7e34; --ok-bg:#e6f4ea; --caught:#0b5394; --caught-bg:#e3eefb;
  --bad:#b00020; --bad-bg:#fde7e9; --muted:#5f6368; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  margin: 0; color: #1f2328; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
header h1 { margin: 0 0 4px; font-size: 22px; }
.headline { font-size: 18px; font-weight: 600; margin: 4px 0; }
.headline.failed { color: var(--bad); } .headline.passed { color: var(--ok); }
.meta, .note, .histogram-empty { color: var(--muted); }
main { padding: 8px 24px 40px; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 8px; border-radius: 3px; }
table.matrix { border-collapse: collapse; margin: 8px 0 18px; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 4px 8px;
  text-align: center; font-size: 12px; }
table.matrix thead th { background: #f6f8fa; min-width: 110px; max-width: 170px;
  overflow-wrap: break-word; }
table.matrix tbody th { text-align: left; font-family: ui-monospace, monospace; }
td.cell a { color: inherit; text-decoration: none; display: block; }
td.cell small { display: block; color: var(--muted); }
.clean-ok { background: var(--ok-bg); color: var(--ok); }
.caught-ok { background: var(--caught-bg); color: var(--caught); }
.mismatch { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
td.na { background: repeating-linear-gradient(45deg,#fafafa,#fafafa 4px,#f0f0f0 4px,#f0f0f0 8px); }
section.case { border: 1px solid var(--line); border-left: 6px solid var(--ok);
  border-radius: 4px; padding: 8px 14px; margin: 12px 0; }
section.case.caught-ok { border-left-color: var(--caught); background: #fff; color: inherit; }
section.case.clean-ok { background: #fff; color: inherit; }
section.case.mismatch { border-left-color: var(--bad); background: #fff; color: inherit;
  font-weight: normal; }
section.case h3 { margin: 4px 0; font-size: 15px; font-family: ui-monospace, monospace; }
.badge { font: 600 11px system-ui, sans-serif; padding: 1px 6px; border-radius: 3px;
  vertical-align: middle; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 6px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.reason { color: var(--bad); font-weight: 600; }
ul.findings { padding-left: 18px; } li.finding { margin: 6px 0; }
li.finding .kind { font-weight: 600; font-family: ui-monospace, monospace; }
li.finding.unexpected .kind { color: var(--bad); }
.oracle, .runs, .file { color: var(--muted); }
ol.stack { margin: 2px 0 4px; font: 12px ui-monospace, monospace; }
ol.stack li.more { font-family: system-ui, sans-serif; list-style: none; }
ol.stack li.library, ol.stack li.racelab, ol.stack li.more { color: var(--muted); }
ol.stack li.user code { font-weight: 600; }
details.frames, details.similar, details.detail { margin: 0 0 4px 18px; font-size: 12px; }
details > summary { cursor: pointer; color: var(--muted); }
p.same-stack { margin: 0 0 4px 18px; font-size: 12px; color: var(--muted); }
pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; }
.swimlane-wrap { overflow-x: auto; margin: 8px 0; }
svg text { font: 11px "DejaVu Sans Mono", ui-monospace, monospace; fill: #1f2328; }
svg.swimlane .lane-bg { fill: #f6f8fa; stroke: var(--line); }
svg.swimlane .lane-title { font-weight: bold; }
svg.swimlane g.axis text { fill: var(--muted); text-anchor: end; }
svg.swimlane .step-rule { stroke: #eaeef2; }
svg.swimlane rect.op { fill: #dbe9fb; stroke: #6b9bd8; }
svg.swimlane rect.result { fill: #e6f4ea; stroke: #5aa36a; }
svg.swimlane rect.lock { fill: #fff4d6; stroke: #c9a227; }
svg.swimlane rect.wait { fill: #ffe3c2; stroke: #d9822b; stroke-dasharray: 3 2; }
svg.swimlane rect.other { fill: #eeeeee; stroke: #999; }
svg.swimlane rect.finding { fill: #f8d7da; stroke: var(--bad); stroke-width: 2; }
svg.swimlane .event.finding text { fill: var(--bad); font-weight: bold; }
svg.swimlane rect.finding-band { fill: rgba(176,0,32,0.08); }
svg.swimlane rect.lock-hold { fill: #c9a227; }
svg.swimlane rect.lock-hold.unreleased { fill: var(--bad); }
svg.swimlane line.switch { stroke: #8c959f; stroke-dasharray: 4 3; }
svg.swimlane .event.switch text { fill: var(--muted); font-size: 10px; }
svg.swimlane g.event rect { rx: 3px; }
svg.histogram g.bar rect { fill: #8c959f; rx: 2px; }
svg.histogram text.outcome { text-anchor: end; }
svg.histogram g.bar.acceptable rect { fill: #2da44e; }
svg.histogram g.bar.missed rect { fill: #afb8c1; }
svg.histogram g.bar.allowed rect { fill: #d4a72c; }
svg.histogram g.bar.forbidden rect { fill: var(--bad); }
.filters label { margin-right: 14px; }
[hidden] { display: none !important; }
)css";

constexpr const char* kScript = R"js(
(function () {
  var mismatches = document.getElementById('only-mismatches');
  var traces = document.getElementById('only-traces');
  function apply() {
    var cases = document.querySelectorAll('section.case');
    for (var i = 0; i < cases.length; i++) {
      var c = cases[i];
      var show = (!mismatches.checked || c.getAttribute('data-verdict') === 'mismatch') &&
                 (!traces.checked || c.hasAttribute('data-has-trace'));
      c.hidden = !show;
    }
  }
  mismatches.addEventListener('change', apply);
  traces.addEventListener('change', apply);
  // What the browser actually drew, for tests that read the DOM back
  // (tests/report/check_reports.sh): boxes and bars with a non-empty box.
  function drawn(root, selector) {
    var n = 0, items = root.querySelectorAll(selector);
    for (var i = 0; i < items.length; i++) {
      var b = items[i].getBBox();
      if (b.width > 0 && b.height > 0) n++;
    }
    return n;
  }
  var lanes = document.querySelectorAll('svg.swimlane');
  for (var i = 0; i < lanes.length; i++) {
    lanes[i].setAttribute('data-drawn-lanes', drawn(lanes[i], 'g.lane'));
    lanes[i].setAttribute('data-drawn-boxes',
        drawn(lanes[i], 'rect.op, rect.result, rect.lock, rect.wait, rect.finding'));
    lanes[i].setAttribute('data-drawn-holds', drawn(lanes[i], 'rect.lock-hold'));
  }
  var charts = document.querySelectorAll('svg.histogram');
  for (var j = 0; j < charts.length; j++) {
    charts[j].setAttribute('data-drawn-bars', drawn(charts[j], 'g.bar rect'));
  }
  // Stacks: the store's frames laid out on the page, the folded stacks
  // closed (their frames take no room until opened).
  function shown(el) { return el.getClientRects().length > 0; }
  var own = document.querySelectorAll('ol.stack.own li'), seen = 0;
  for (var k = 0; k < own.length; k++) if (shown(own[k])) seen++;
  var folded = document.querySelectorAll('details.frames'), closed = 0;
  for (var m = 0; m < folded.length; m++) {
    var d = folded[m], summary = d.querySelector('summary');
    var height = d.getBoundingClientRect().height;
    if (shown(d) && !d.open && summary &&
        height <= summary.getBoundingClientRect().height + 1) closed++;
  }
  document.body.setAttribute('data-drawn-frames', seen);
  document.body.setAttribute('data-folded-stacks', folded.length);
  document.body.setAttribute('data-closed-stacks', closed);
  document.body.setAttribute('data-script', 'ok');
})();
)js";

}  // namespace

std::string html_report(const GateResult& result, const GateOptions& options) {
  const std::size_t n = result.cases.size();
  const int m = result.mismatches;
  const std::string headline =
      absl::StrCat(n, n == 1 ? " case, " : " cases, ", m,
                   m == 1 ? " mismatch" : " mismatches");
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
      html_escape(result.run_id), "\">\n<title>racelab gate: ", headline,
      "</title>\n<style>", kStyle, "</style>\n</head>\n<body>\n<header>\n",
      "<h1>racelab gate</h1>\n<p class=\"headline ",
      m == 0 ? "passed" : "failed", "\" id=\"headline\">", headline,
      "</p>\n<p class=\"meta\">modes ");
  std::vector<std::string> mode_names;
  for (Mode mode : modes) mode_names.push_back(to_string(mode));
  absl::StrAppend(&out, absl::StrJoin(mode_names, ", "), "; ",
                  html_escape(report::what_ran(result.cases, options)),
                  "</p>\n");
  if (const std::string line = report::run_line(result, options);
      !line.empty()) {
    absl::StrAppend(&out, "<p class=\"meta\" id=\"run\">", html_escape(line),
                    "</p>\n");
  }
  out +=
      "<p class=\"legend\"><span class=\"clean-ok\">clean, as expected</span>"
      "<span class=\"caught-ok\">caught, as expected</span>"
      "<span class=\"mismatch\">mismatch</span></p>\n"
      "<p class=\"filters\"><label><input type=\"checkbox\" "
      "id=\"only-mismatches\"> only "
      "mismatches</label><label><input type=\"checkbox\" id=\"only-traces\"> "
      "only cases "
      "with a trace</label></p>\n</header>\n<main>\n";

  // Mismatches first: what a reviewer must look at.
  if (m > 0 ||
      std::any_of(result.cases.begin(), result.cases.end(),
                  [](const CaseResult& c) { return !c.mismatch.empty(); })) {
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
  out += "<section id=\"matrix\">\n<h2>Case matrix</h2>\n";
  for (Mode mode : modes) {
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
  out += "</section>\n";

  // One section per case.
  out += "<section id=\"cases\">\n<h2>Cases</h2>\n";
  PageIndex page;
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult& c = result.cases[i];
    const char* verdict = report::to_string(report::verdict_of(c));
    absl::StrAppend(
        &out, "<section class=\"case ", verdict, "\" id=\"", ids[i],
        "\" data-verdict=\"", verdict, "\" data-mode=\"", to_string(c.mode),
        "\" data-subject=\"", html_escape(c.subject), "\" data-scenario=\"",
        html_escape(c.scenario), "\"",
        c.schedule.trace.rows.empty() ? "" : " data-has-trace", ">\n<h3>",
        html_escape(c.subject), " × ", html_escape(c.scenario), " (",
        to_string(c.mode), ") <span class=\"badge ", verdict, "\">",
        c.mismatch.empty() ? "ok" : "MISMATCH", "</span></h3>\n");
    absl::StrAppend(&out, "<dl class=\"facts\"><dt>expected</dt><dd>",
                    html_escape(c.expected), "</dd><dt>observed</dt><dd>",
                    html_escape(report::observed_text(c)), "</dd>");
    if (c.mode == Mode::kControlled) {
      absl::StrAppend(&out, "<dt>searches caught</dt><dd>", c.runs_with_finding,
                      "/", c.runs, "</dd><dt>schedules tried</dt><dd>",
                      c.schedules, "</dd>");
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
      absl::StrAppend(&out, "<p class=\"reason\">", html_escape(c.mismatch),
                      "</p>\n");
    }
    findings_html(out, c, page);
    // The outcomes of repeated runs, as jcstress shows them; one controlled
    // search has one outcome, which the facts above give.
    if (c.runs != 1) {
      out += "<h4>Outcomes</h4>\n";
      histogram_svg(out, c);
    }
    if (!c.schedule.trace.rows.empty()) {
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
