// index.html's SVG pictures of a case: the outcome histogram of its repeated
// runs (outcome -> runs, graded as jcstress grades them) and the swimlane of
// its trace (one lane per logical thread, one box per event at its row, lock
// pairs folded into their operation's row, lock holds as bars, findings in
// red). See html.cc for the page they are part of.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "html_internal.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab::html_internal {
namespace {

using report::html_escape;

constexpr std::size_t kMaxTraceRows = 1500;
constexpr int kMaxLanes = 64;
constexpr std::size_t kMaxBoxLines = 3;

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace racelab::html_internal
