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

#include <string>
#include <string_view>
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

// "operation", "lock acquired", "lock released", "lock waited", "switch",
// "exception".
std::string_view to_string(TraceKind kind);

struct TraceRow {
  int step = 0;    // index of the scheduling decision that began this turn
  int thread = 0;  // logical thread, 0-based
  TraceKind kind = TraceKind::kOperation;
  std::string text;

  bool operator==(const TraceRow&) const = default;
};

struct Trace {
  int thread_count = 0;
  std::vector<TraceRow> rows;

  bool operator==(const Trace&) const = default;
};

// The trace as a fixed-width table:
//
//   step | thread 0                          | thread 1
//   -----+-----------------------------------+-----------------------------
//      0 | set(k1,v) begins                  |
//      0 | preempted at 'lock'               |
//      1 |                                   | get(k1) begins
//
// Columns share `width` characters (at least 12 per thread); a cell longer
// than its column wraps onto continuation lines, at a space when there is one.
// Lines carry no trailing spaces and end with '\n'.
std::string format_trace(const Trace& trace, int width = 80);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_TRACE_H_
