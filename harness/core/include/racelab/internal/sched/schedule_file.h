// Saved schedules: a small versioned text format that replays a failing case.
//
// Format, version 2 (lines end with '\n'; no blank lines, no comments, no
// carriage returns):
//
//   racelab-schedule 2
//   subject state/unlock_during_iteration     <- header: `key value` lines
//   scenario iterate_while_set
//   mode controlled
//   strategy pct
//   seed 42                                   <- unsigned 64-bit decimal
//   depth 3                                   <- optional extra keys
//   setup set(k0,v0)                          <- the setup operations, run
//                                                before the threads start;
//                                                `setup` alone: none
//   program 2                                 <- N logical threads, 1..1024
//   set(k1,v1) set(k2,v2)                     <- N lines, one per thread, in
//   all()                                        order: the engine's opaque
//                                                encoding of its operations
//   finale                                    <- the finale operations, run
//                                                after the threads end;
//                                                `finale` alone: none
//   decisions 7
//   0 0 1 1 0 1 1                             <- M decisions in [0, N), split
//   end                                          over any number of lines
//                                                (with `memory_model on`: in
//                                                [0, max(N, 8)), a load's
//                                                store among them)
//
// Header keys match [a-z][a-z0-9_.-]*, appear once each and may come in any
// order; subject, scenario, mode, strategy and seed are required; `setup`,
// `finale`, `program`, `decisions` and `end` are not keys. A value is
// everything after the first space: non-empty, printable, valid UTF-8, and it
// may contain spaces. Program lines, and the text of the setup and finale
// lines after "setup " and "finale ", are stored verbatim (valid UTF-8,
// anything but '\n' and '\r', may be empty). Nothing may follow `end` but its
// newline. A file is at most ScheduleFile::kMaxBytes (4 MiB) long; readers
// stop at that limit instead of reading on. parse_schedule() checks all of
// this and throws ScheduleFileError with a one-line message "<source>:<line>:
// <what is wrong>" ("<source>: schedule file larger than the 4 MiB limit" for
// the size); it never crashes, whatever the input.
//
// Version 1 (still read; write_schedule() writes version 2) had no setup and
// finale lines: setup and finale were optional header keys `setup` and
// `finale` whose value "-" meant no operations.
//
// Files are read and written by path through racelab/saved_schedule.h
// (load_schedule, save_schedule); this header is the text format only.
#ifndef RACELAB_SCHED_SCHEDULE_FILE_H_
#define RACELAB_SCHED_SCHEDULE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace racelab::sched {

class ScheduleFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ScheduleFile {
  static constexpr int kVersion = 2;  // the version written
  // A whole program's run may create up to kMaxProgramThreads (scheduler.h)
  // threads; a file that names that many is past kMaxBytes anyway.
  static constexpr int kMaxThreads = 1 << 20;
  // The largest file accepted, in bytes (a real schedule is a few KiB).
  static constexpr std::size_t kMaxBytes = std::size_t{4} << 20;

  std::string subject;   // "state/unlock_during_iteration"
  std::string scenario;  // "iterate_while_set"
  std::string mode;      // "controlled", "fuzz"
  std::string strategy;  // "pct", "dfs", "random", "replay"
  std::uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> extra;  // in file order
  std::string setup;                 // opaque, "" for none
  std::vector<std::string> program;  // one opaque line per logical thread
  std::string finale;                // opaque, "" for none
  std::vector<int> decisions;

  // A file recorded in the memory-model mode says `memory_model on`: some
  // decisions are then which of at most kMaxStoreChoices stores a load
  // read, so a decision may exceed the program's threads up to that.
  static constexpr int kMaxStoreChoices = 8;
  bool memory_model() const;
  // Decisions are in [0, decision_bound()).
  int decision_bound() const;

  // The program as the engine encodes it: setup, one line per thread, finale.
  std::vector<std::string> program_lines() const;
  // Sets setup, program and finale from such lines; throws
  // std::invalid_argument when there are fewer than three.
  void set_program_lines(const std::vector<std::string>& lines);

  bool operator==(const ScheduleFile&) const = default;
};

// The file's text. Throws std::invalid_argument when `file` cannot be written
// faithfully (empty required value, bad or duplicate key, newline in a value
// or program line, text that is not UTF-8, no program, a decision out of
// range, more than kMaxBytes).
std::string write_schedule(const ScheduleFile& file);

// Where the parts of a parsed file are, for messages about their content
// (for example an operation the case's family does not know).
struct ScheduleFileLines {
  std::vector<std::pair<std::string, int>> keys;  // header key -> line number
  int program = 0;  // the line number of program line 0 (thread 0)
  int setup = 0;    // the line of the setup operations, 0 when absent (v1)
  int finale = 0;   // the line of the finale operations, 0 when absent (v1)
  int version = 0;  // the version the file says it is (1 or 2)
  // The line of header key `key`, 0 when the file has no such key.
  int of_key(std::string_view key) const;
};

// Parses and validates `text`; `source_name` (a path) prefixes error messages.
// When `lines` is given, it receives where the header keys and the program
// lines are.
ScheduleFile parse_schedule(std::string_view text, std::string_view source_name,
                            ScheduleFileLines* lines = nullptr);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SCHEDULE_FILE_H_
