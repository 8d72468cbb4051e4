// Schedule files on disk: the one place where racelab reads and writes them
// (the CLI's --save-schedule and replay, the demo, the kit's check_store and
// replay_store). The text format itself is sched/schedule_file.h.
#ifndef RACELAB_SAVED_SCHEDULE_H_
#define RACELAB_SAVED_SCHEDULE_H_

#include <cstdint>
#include <string>

#include "racelab/case.h"
#include "racelab/sched/schedule_file.h"

namespace racelab {

// Who recorded a schedule and how: the header of its file.
struct ScheduleOrigin {
  std::string subject;   // "checkpoint/split_lock", or a kit store's name
  std::string scenario;  // "same_session_first_commit"
  std::string strategy;  // "pct"
  std::uint64_t seed = 0;
};

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

// Reads and parses the schedule file at `path` (a regular file, or a pipe
// with a writer; see schedule_source.h). Throws InputError when it cannot be
// read and sched::ScheduleFileError when it is not a valid schedule file,
// each with one line naming `path`.
LoadedSchedule load_schedule(const std::string& path);

// Writes `file` to `path` atomically (racelab never leaves a half-written
// file). Throws std::invalid_argument when `file` cannot be written
// faithfully (sched::write_schedule) and OutputError when `path` cannot be
// written.
void save_schedule(const std::string& path, const sched::ScheduleFile& file);

}  // namespace racelab

#endif  // RACELAB_SAVED_SCHEDULE_H_
