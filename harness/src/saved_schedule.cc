// Schedule files on disk (racelab/saved_schedule.h).
#include "racelab/saved_schedule.h"

#include "atomic_file.h"
#include "racelab/runner.h"
#include "schedule_source.h"

namespace racelab {

sched::ScheduleFile schedule_file_for(const RecordedSchedule& schedule,
                                      const ScheduleOrigin& origin) {
  if (schedule.program.size() < 3) {
    throw InputError("the run recorded no schedule to save");
  }
  sched::ScheduleFile file;
  file.subject = origin.subject;
  file.scenario = origin.scenario;
  file.mode = "controlled";
  file.strategy = origin.strategy;
  file.seed = origin.seed;
  file.set_program_lines(schedule.program);
  file.decisions = schedule.decisions;
  return file;
}

LoadedSchedule load_schedule(const std::string& path) {
  LoadedSchedule loaded;
  loaded.text = read_schedule_source(path);
  loaded.file = sched::parse_schedule(loaded.text, path, &loaded.lines);
  return loaded;
}

void save_schedule(const std::string& path, const sched::ScheduleFile& file) {
  write_file_atomically(path, sched::write_schedule(file));
}

}  // namespace racelab
