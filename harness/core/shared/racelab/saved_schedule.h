// Schedule files on disk: the one place where racelab turns a recorded
// schedule into a schedule file and reads and writes them by path (the CLI's
// --save-schedule and replay, the demo, the kit's checks and replays). The
// text format itself is sched/schedule_file.h. How bytes
// reach the disk is the caller's layer's business: the CLI passes its
// atomic writer and its FIFO-safe reader; the kit uses the plain defaults.
#ifndef RACELAB_SAVED_SCHEDULE_H_
#define RACELAB_SAVED_SCHEDULE_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "racelab/internal/case.h"
#include "racelab/internal/sched/schedule_file.h"

namespace racelab {

// Who recorded a schedule and how: the header of its file.
struct ScheduleOrigin {
  std::string subject;   // "checkpoint/split_lock", or a kit store's name
  std::string scenario;  // "same_session_first_commit"
  std::string strategy;  // "pct"
  std::uint64_t seed = 0;
};

// The mode of a schedule of plain code (racelab::explore, `racelab explore`).
inline constexpr char kProgramScheduleMode[] = "program";

// The file of a schedule of plain code: mode "program", scenario "explore",
// one program line per logical thread the decisions name ("main",
// "thread 1", ...). The caller adds its extra keys.
sched::ScheduleFile program_schedule_file(std::string subject,
                                          std::string strategy,
                                          std::uint64_t seed,
                                          const std::vector<int>& decisions);

// The file of a recorded schedule (mode controlled). Throws InputError when
// the schedule has no program (fewer than three lines).
sched::ScheduleFile schedule_file_for(const RecordedSchedule& schedule,
                                      const ScheduleOrigin& origin);

// A schedule file as read: its bytes (what a child replays), the parsed file
// and where its parts are.
struct LoadedSchedule {
  std::string text;
  sched::ScheduleFile file;
  sched::ScheduleFileLines lines;
};

// racelab's per-user folder for schedules saved without a path of the user's:
// $XDG_STATE_HOME/racelab/schedules (else ~/.local/state/racelab/schedules),
// created 0700. Never a shared folder such as /tmp, where another user could
// plant a link or a schedule. A folder there that is a symbolic link, owned
// by another user or open to others is refused: the result is "" and
// `error` says why.
std::string private_schedule_folder(std::string* error = nullptr);

// `name` as a part of a file name: every character but [A-Za-z0-9._-]
// becomes '_' ("checkpoint/mutex" -> "checkpoint_mutex").
std::string file_name_part(std::string_view name);

// "<folder>/racelab-<part>-<part>....schedule", each part through
// file_name_part: the name under which the kit and racelab::explore keep a
// test's schedule (one file per test, replaced by its next failure).
std::string schedule_file_in(std::string_view folder,
                             std::initializer_list<std::string_view> parts);

// Reads a file's bytes; throws (InputError) with one line naming the path.
using ReadScheduleBytes = std::function<std::string(const std::string& path)>;
// Writes a file's bytes; throws with one line naming the path.
using WriteScheduleBytes =
    std::function<void(const std::string& path, std::string_view text)>;

// The defaults: a regular file of at most sched::ScheduleFile::kMaxBytes,
// read whole; written to a temporary file beside `path` and renamed over it
// (std::runtime_error when either fails).
std::string read_schedule_bytes(const std::string& path);
void write_schedule_bytes(const std::string& path, std::string_view text);

// Reads and parses the schedule file at `path`. Throws what `read` throws and
// sched::ScheduleFileError when it is not a valid schedule file, each with
// one line naming `path`.
LoadedSchedule load_schedule(
    const std::string& path,
    const ReadScheduleBytes& read = read_schedule_bytes);

// A case schedule carries a digest of its subject, scenario and program
// (key program.digest, written by schedule_file_for), so that a file whose
// header was pointed at another case is refused instead of judged. Throws
// InputError naming the line when the digest is there and does not match,
// and when a version 2 case schedule (mode controlled) has none: a file
// whose digest line was cut could name any case. Version 1 files, written
// before the key existed, have none and pass; so do whole programs'
// schedules (mode program), which name no case.
void check_program_digest(const sched::ScheduleFile& file,
                          const sched::ScheduleFileLines& lines,
                          const std::string& path);

// Writes `file` to `path`. Throws std::invalid_argument when `file` cannot be
// written faithfully (sched::write_schedule) and what `write` throws.
void save_schedule(const std::string& path, const sched::ScheduleFile& file,
                   const WriteScheduleBytes& write = write_schedule_bytes);

}  // namespace racelab

#endif  // RACELAB_SAVED_SCHEDULE_H_
