// Trace formatting: one column per logical thread, one row per event.
#include "racelab/sched/trace.h"

#include <algorithm>
#include <string>

namespace racelab::sched {
namespace {

constexpr int kMinCellWidth = 12;
constexpr int kMaxColumns = 1024;
constexpr std::string_view kStepHeader = "step";

bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Splits `text` into pieces of at most `width` bytes: at the last space that
// fits when there is one in the second half of the piece, else at the width
// (never inside a UTF-8 sequence). Control characters print as '?'.
std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  std::string clean(text);
  for (char& c : clean) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  std::vector<std::string> lines;
  std::string_view rest = clean;
  while (rest.size() > width) {
    std::size_t cut = width;
    const std::size_t space = rest.rfind(' ', width);
    if (space != std::string_view::npos && space >= width / 2 && space > 0) {
      cut = space;
    } else {
      while (cut > 1 && is_utf8_continuation(rest[cut])) --cut;
    }
    std::string_view piece = rest.substr(0, cut);
    while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
    lines.emplace_back(piece);
    rest.remove_prefix(cut);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  }
  if (!rest.empty() || lines.empty()) lines.emplace_back(rest);
  return lines;
}

void append_padded(std::string& out, std::string_view text, std::size_t width,
                   bool right_align) {
  const std::size_t pad = text.size() < width ? width - text.size() : 0;
  if (right_align) out.append(pad, ' ');
  out.append(text);
  if (!right_align) out.append(pad, ' ');
}

void end_line(std::string& out) {
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out.push_back('\n');
}

}  // namespace

std::string_view to_string(TraceKind kind) {
  switch (kind) {
    case TraceKind::kOperation:
      return "operation";
    case TraceKind::kLockAcquired:
      return "lock acquired";
    case TraceKind::kLockReleased:
      return "lock released";
    case TraceKind::kLockWaited:
      return "lock waited";
    case TraceKind::kSwitch:
      return "switch";
    case TraceKind::kException:
      return "exception";
  }
  return "unknown";
}

std::string format_trace(const Trace& trace, int width) {
  int threads = std::max(trace.thread_count, 1);
  for (const TraceRow& row : trace.rows) {
    if (row.thread < kMaxColumns) threads = std::max(threads, row.thread + 1);
  }
  threads = std::min(threads, kMaxColumns);
  int max_step = 0;
  for (const TraceRow& row : trace.rows)
    max_step = std::max(max_step, row.step);
  const std::size_t step_width =
      std::max(kStepHeader.size(), std::to_string(max_step).size());
  // Each column is preceded by " | ".
  const int available = width - static_cast<int>(step_width) - 3 * threads;
  const std::size_t cell_width =
      static_cast<std::size_t>(std::max(kMinCellWidth, available / threads));

  std::string out;
  append_padded(out, kStepHeader, step_width, /*right_align=*/false);
  for (int t = 0; t < threads; ++t) {
    out += " | ";
    append_padded(out, "thread " + std::to_string(t), cell_width, false);
  }
  end_line(out);
  out.append(step_width + 1, '-');
  for (int t = 0; t < threads; ++t) {
    out += '+';
    out.append(t + 1 < threads ? cell_width + 2 : cell_width + 1, '-');
  }
  end_line(out);

  for (const TraceRow& row : trace.rows) {
    const std::vector<std::string> lines = wrap(row.text, cell_width);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      append_padded(out, i == 0 ? std::to_string(row.step) : std::string(),
                    step_width, /*right_align=*/true);
      for (int t = 0; t < threads; ++t) {
        out += " | ";
        append_padded(out, t == row.thread ? lines[i] : std::string(),
                      cell_width, false);
      }
      end_line(out);
    }
  }
  return out;
}

}  // namespace racelab::sched
