// Trace formatting: one column per logical thread (one column naming the
// thread of each row past 16 threads), one row per event.
#include "racelab/internal/sched/trace.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/sched/scheduler.h"

namespace racelab::sched {
namespace {

constexpr int kMinCellWidth = 12;
// The most thread columns a trace is drawn with; a trace of more threads
// has one column naming the thread of each row instead.
constexpr int kMaxColumns = 16;
constexpr std::string_view kStepHeader = "step";
constexpr std::string_view kThreadHeader = "thread";
constexpr std::string_view kEventHeader = "event";

bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool breaks_after(char c) {
  return c == ',' || c == ';' || c == ')' || c == ']' || c == '}';
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

void merge_locks(std::vector<std::pair<std::string, int>>& into,
                 const std::vector<std::pair<std::string, int>>& from) {
  for (const auto& lock : from) {
    auto it = std::find_if(into.begin(), into.end(), [&](const auto& l) {
      return l.first == lock.first;
    });
    if (it == into.end()) {
      into.push_back(lock);
    } else {
      it->second += lock.second;
    }
  }
}

constexpr std::pair<TraceKind, std::string_view> kKindNames[] = {
    {TraceKind::kOperation, "operation"},
    {TraceKind::kLockAcquired, "lock acquired"},
    {TraceKind::kLockReleased, "lock released"},
    {TraceKind::kLockWaited, "lock waited"},
    {TraceKind::kSwitch, "switch"},
    {TraceKind::kException, "exception"},
};

}  // namespace

std::vector<std::string> wrap_text(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::string clean(text);
  for (char& c : clean) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  std::vector<std::string> lines;
  std::string_view rest = clean;
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  while (rest.size() > width) {
    std::size_t cut = 0;
    const std::size_t space = rest.rfind(' ', width);
    if (space != std::string_view::npos && space > 0) {
      cut = space;
    } else {
      for (std::size_t i = width - 1; i > 0 && cut == 0; --i) {
        if (breaks_after(rest[i])) cut = i + 1;
      }
      if (cut == 0) {
        cut = width;
        while (cut > 1 && is_utf8_continuation(rest[cut])) --cut;
      }
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

std::string FoldedRow::text(std::string_view row_text) const {
  std::string locks_text;
  for (const auto& [lock, n] : locks) {
    if (!locks_text.empty()) locks_text += ", ";
    locks_text += lock;
    if (n > 1) locks_text += " x" + std::to_string(n);
  }
  if (lock_pair) return "locked " + locks_text;
  if (locks.empty()) return std::string(row_text);
  return std::string(row_text) + " [locked " + locks_text + "]";
}

std::vector<FoldedRow> fold_lock_pairs(const std::vector<FoldInput>& rows) {
  std::vector<FoldedRow> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FoldInput& row = rows[i];
    if (row.role == FoldRole::kRelease) {
      // The acquisition: the shown row before this thread's folded pairs.
      std::size_t j = out.size();
      while (j > 0 && out[j - 1].lock_pair &&
             rows[out[j - 1].row].thread == row.thread) {
        --j;
      }
      const bool paired = j > 0 && !out[j - 1].lock_pair &&
                          rows[out[j - 1].row].role == FoldRole::kAcquire &&
                          rows[out[j - 1].row].thread == row.thread &&
                          rows[out[j - 1].row].lock == row.lock;
      if (paired) {
        const std::size_t acquire = out[j - 1].row;
        std::vector<std::pair<std::string, int>> locks = {{row.lock, 1}};
        for (std::size_t k = j; k < out.size(); ++k)
          merge_locks(locks, out[k].locks);
        out.resize(j - 1);
        if (!out.empty()) {
          FoldedRow& before = out.back();
          const FoldInput& b = rows[before.row];
          if (b.thread == row.thread &&
              (before.lock_pair || b.role == FoldRole::kOperation)) {
            merge_locks(before.locks, locks);
            continue;
          }
        }
        out.push_back({acquire, true, std::move(locks)});
        continue;
      }
    }
    out.push_back({i, false, {}});
  }
  return out;
}

std::vector<FoldInput> fold_inputs(const Trace& trace) {
  std::vector<FoldInput> inputs;
  inputs.reserve(trace.rows.size());
  for (const TraceRow& row : trace.rows) {
    FoldInput in{row.thread, FoldRole::kOther, {}};
    switch (row.kind) {
      case TraceKind::kOperation:
        if (!row.is_result()) in.role = FoldRole::kOperation;
        break;
      case TraceKind::kLockAcquired:
        in.role = FoldRole::kAcquire;
        in.lock = row.shown_lock();
        break;
      case TraceKind::kLockReleased:
        in.role = FoldRole::kRelease;
        in.lock = row.shown_lock();
        break;
      default:
        break;
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

std::string_view to_string(TraceKind kind) {
  for (const auto& [k, name] : kKindNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<TraceKind> parse_trace_kind(std::string_view name) {
  for (const auto& [k, n] : kKindNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

namespace {

void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (text.empty()) {
    out += '%';  // an empty field
    return;
  }
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '%' || c == ' ' || byte < 0x20 || byte == 0x7f) {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
}

std::optional<std::string> unescape(std::string_view field) {
  if (field == "%") return std::string();
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '%') {
      out += field[i];
      continue;
    }
    if (i + 2 >= field.size()) return std::nullopt;
    int value = 0;
    for (std::size_t k = i + 1; k <= i + 2; ++k) {
      const char h = field[k];
      value *= 16;
      if (h >= '0' && h <= '9') {
        value += h - '0';
      } else if (h >= 'A' && h <= 'F') {
        value += h - 'A' + 10;
      } else {
        return std::nullopt;
      }
    }
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

std::optional<int> small_number(std::string_view text, int limit) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > limit) return std::nullopt;
  return value;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t space = line.find(' ');
    fields.push_back(line.substr(0, space));
    if (space == std::string_view::npos) break;
    line.remove_prefix(space + 1);
  }
  return fields;
}

}  // namespace

std::string encode_trace(const Trace& trace) {
  return "threads " + std::to_string(trace.thread_count) + "\n" +
         encode_trace_rows(trace.rows, 0);
}

std::string encode_trace_rows(const std::vector<TraceRow>& rows,
                              std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < rows.size(); ++i) {
    const TraceRow& row = rows[i];
    out += "row " + std::to_string(row.step) + " " +
           std::to_string(row.thread) + " ";
    append_escaped(out, to_string(row.kind));
    out += ' ';
    append_escaped(out, row.lock);
    out += row.shared ? " 1 " : " 0 ";
    append_escaped(out, row.text);
    out += '\n';
  }
  return out;
}

std::optional<Trace> decode_trace(std::string_view text) {
  constexpr int kLimit = 1 << 30;
  Trace trace;
  bool have_threads = false;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) return std::nullopt;  // cut off
    const std::vector<std::string_view> fields =
        split_fields(text.substr(0, end));
    text.remove_prefix(end + 1);
    if (fields[0] == "threads" && fields.size() == 2 && !have_threads) {
      const std::optional<int> n = small_number(fields[1], kMaxProgramThreads);
      if (!n) return std::nullopt;
      trace.thread_count = *n;
      have_threads = true;
      continue;
    }
    if (fields[0] != "row" || fields.size() != 7 || !have_threads) {
      return std::nullopt;
    }
    const std::optional<int> step = small_number(fields[1], kLimit);
    const std::optional<int> thread =
        small_number(fields[2], kMaxProgramThreads - 1);
    const std::optional<std::string> kind_name = unescape(fields[3]);
    const std::optional<std::string> lock = unescape(fields[4]);
    const std::optional<std::string> row_text = unescape(fields[6]);
    if (!step || !thread || !kind_name || !lock || !row_text ||
        (fields[5] != "0" && fields[5] != "1")) {
      return std::nullopt;
    }
    const std::optional<TraceKind> kind = parse_trace_kind(*kind_name);
    if (!kind) return std::nullopt;
    trace.rows.emplace_back(*step, *thread, *kind, *row_text, *lock,
                            fields[5] == "1");
  }
  if (!have_threads) return std::nullopt;
  return trace;
}

std::string TraceRow::shown_lock() const {
  if (lock.empty()) return "";
  return "'" + lock + "'" + (shared ? " (shared)" : "");
}

namespace {

// A trace of more than kMaxColumns threads: "step | thread | event", one
// line per row (and its continuation lines), in the order of the rows.
std::string format_trace_by_row(const Trace& trace, int width,
                                std::size_t step_width) {
  int max_thread = 0;
  for (const TraceRow& row : trace.rows) {
    max_thread = std::max(max_thread, row.thread);
  }
  const std::size_t thread_width =
      std::max(kThreadHeader.size(), std::to_string(max_thread).size());
  const std::size_t event_width = static_cast<std::size_t>(std::max(
      kMinCellWidth, width - static_cast<int>(step_width + thread_width) - 6));
  std::string out;
  append_padded(out, kStepHeader, step_width, /*right_align=*/false);
  out += " | ";
  append_padded(out, kThreadHeader, thread_width, false);
  out += " | ";
  out += kEventHeader;
  end_line(out);
  out.append(step_width + 1, '-');
  out += '+';
  out.append(thread_width + 2, '-');
  out += '+';
  out.append(event_width + 1, '-');
  end_line(out);
  std::optional<int> numbered;
  for (const FoldedRow& folded : fold_lock_pairs(fold_inputs(trace))) {
    const TraceRow& row = trace.rows[folded.row];
    const std::vector<std::string> lines =
        wrap_text(folded.text(row.text), event_width);
    const bool first_of_step = numbered != row.step;
    numbered = row.step;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      append_padded(
          out,
          i == 0 && first_of_step ? std::to_string(row.step) : std::string(),
          step_width, /*right_align=*/true);
      out += " | ";
      append_padded(out, i == 0 ? std::to_string(row.thread) : std::string(),
                    thread_width, /*right_align=*/true);
      out += " | ";
      out += lines[i];
      end_line(out);
    }
  }
  return out;
}

}  // namespace

std::string format_trace(const Trace& trace, int width) {
  int threads = std::max(trace.thread_count, 1);
  for (const TraceRow& row : trace.rows) {
    threads = std::max(threads, row.thread + 1);
  }
  int max_step = 0;
  for (const TraceRow& row : trace.rows)
    max_step = std::max(max_step, row.step);
  const std::size_t step_width =
      std::max(kStepHeader.size(), std::to_string(max_step).size());
  if (threads > kMaxColumns) {
    return format_trace_by_row(trace, width, step_width);
  }
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

  // A step's number heads its first row only: the rows of one turn follow
  // it unnumbered, so that each number in the column is one step.
  std::optional<int> numbered;
  for (const FoldedRow& folded : fold_lock_pairs(fold_inputs(trace))) {
    const TraceRow& row = trace.rows[folded.row];
    const std::vector<std::string> lines =
        wrap_text(folded.text(row.text), cell_width);
    const bool first_of_step = numbered != row.step;
    numbered = row.step;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      append_padded(
          out,
          i == 0 && first_of_step ? std::to_string(row.step) : std::string(),
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
