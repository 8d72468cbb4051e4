// The trace of a controlled run, as data, and its table formatter.
//
// A run records one row per event of a logical thread: an operation the
// engine notes ("set(k1,v) begins"), a lock acquired, released or waited for,
// and each switch away from a thread with its reason. format_trace() prints
// the rows as a table with one column per thread and one row per event, as
// Lincheck prints its traces. The output depends only on the rows (no
// addresses, no times), so one schedule always prints byte-identical text.
#ifndef RACELAB_SCHED_TRACE_H_
#define RACELAB_SCHED_TRACE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace racelab::sched {

enum class TraceKind {
  kOperation,     // text noted by the engine: "set(k1,v) begins", "-> ok"
  kLockAcquired,  // "acquired 'mu'", "acquired 'mu' (shared)"
  kLockReleased,  // "released 'mu'"
  kLockWaited,    // "blocked on 'mu'": the lock was busy, the turn ends here
  kSwitch,        // the turn ends: "preempted at 'lock'", "finished", ...
  kException,     // "threw: <what>": the thread's function threw
};

// The one name table of trace kinds, for every format that stores a trace
// (results.json, the child's result channel): "operation", "lock acquired",
// "lock released", "lock waited", "switch", "exception". parse_trace_kind is
// the inverse of to_string; nullopt for any other text.
std::string_view to_string(TraceKind kind);
std::optional<TraceKind> parse_trace_kind(std::string_view name);

struct TraceRow {
  TraceRow() = default;
  TraceRow(int step, int thread, TraceKind kind, std::string text,
           std::string lock = {}, bool shared = false)
      : step(step),
        thread(thread),
        kind(kind),
        text(std::move(text)),
        lock(std::move(lock)),
        shared(shared) {}

  int step = 0;    // index of the scheduling decision that began this turn
  int thread = 0;  // logical thread, 0-based
  TraceKind kind = TraceKind::kOperation;
  std::string text;  // for display: "acquired 'mu' (shared)", "-> ok"
  // Lock rows (acquired, released, waited): the lock's name and whether it
  // was taken shared; empty and false on other rows.
  std::string lock;
  bool shared = false;

  bool operator==(const TraceRow&) const = default;

  // An operation's result row ("-> ok"), as the engine notes it.
  bool is_result() const {
    return kind == TraceKind::kOperation && text.starts_with("->");
  }
  // The lock as a row shows it: "'mu'", "'mu' (shared)"; "" on other rows.
  std::string shown_lock() const;
};

struct Trace {
  int thread_count = 0;
  std::vector<TraceRow> rows;

  bool operator==(const Trace&) const = default;
};

// The trace as text that travels between processes (a whole program's run
// tells racelab its trace this way, program_channel.h): a line "threads N",
// then one line per row, "row STEP THREAD KIND LOCK SHARED TEXT", the kind by
// its name, LOCK and TEXT with '%', ' ', and control bytes written as %HH.
// decode_trace is its inverse and treats its input as untrusted: nullopt for
// any line it does not know, a number out of range or a bad escape.
std::string encode_trace(const Trace& trace);
std::optional<Trace> decode_trace(std::string_view text);
// The "row" lines of `rows` from index `from` on: a trace sent a part at a
// time (encode_trace is the "threads" line and then these).
std::string encode_trace_rows(const std::vector<TraceRow>& rows,
                              std::size_t from);

// The trace as a fixed-width table:
//
//   step | thread 0                          | thread 1
//   -----+-----------------------------------+-----------------------------
//      0 | set(k1,v) begins                  |
//        | preempted at 'lock'               |
//      1 |                                   | get(k1) begins
//
// A step's number heads the first row of its turn only, so each number in
// the step column is shown once.
// A trace of more than 16 threads has one line per row instead, under the
// headers "step | thread | event". Columns share `width` characters (at
// least 12 per thread); a cell longer
// than its column wraps onto continuation lines at word boundaries
// (wrap_text()). A lock taken and released with no switch in between folds
// into its operation's row (fold_lock_pairs()): "commit(s0,p0) [locked
// 'checkpoint.mu' x2]". Lines carry no trailing spaces and end with '\n'.
std::string format_trace(const Trace& trace, int width = 80);

// Splits `text` into lines of at most `width` bytes: at the last space that
// fits (the space is dropped), else after the last ',', ';', ')', ']' or '}'
// that fits, and only a word longer than the line is cut (never inside a
// UTF-8 sequence). Control characters print as '?'. At least one line.
std::vector<std::string> wrap_text(std::string_view text, std::size_t width);

// Folding of lock pairs, for every view of a trace (this table, the report's
// swimlane). A pair is a lock's acquisition and its release by one thread
// with no other row in between, except pairs already folded (nested locks):
// no other thread can have run, so the pair says nothing about the
// interleaving. It folds into the row before it when that row is the same
// thread's operation (not a result, "->") or a pair of its own; else it
// stays as one row of its own, "locked 'mu'".
enum class FoldRole { kOperation, kAcquire, kRelease, kOther };

struct FoldInput {
  int thread = 0;
  FoldRole role = FoldRole::kOther;
  std::string lock;  // acquire and release: the lock as shown, "'mu' (shared)"
};

struct FoldedRow {
  std::size_t row = 0;     // the input row shown
  bool lock_pair = false;  // a pair of its own; `row` is its acquisition
  // The locks folded into this row, in order, with how many pairs of each.
  std::vector<std::pair<std::string, int>> locks;

  // The text shown: "commit(s0) [locked 'mu' x2]" for an operation that
  // took locks, "locked 'mu'" for a pair of its own.
  std::string text(std::string_view row_text) const;
};

std::vector<FoldedRow> fold_lock_pairs(const std::vector<FoldInput>& rows);

// The roles of a trace's rows: operations (not results), acquisitions and
// releases with the lock's name as the row shows it.
std::vector<FoldInput> fold_inputs(const Trace& trace);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_TRACE_H_
