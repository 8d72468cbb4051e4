// Schedule files on disk (racelab/saved_schedule.h).
#include "racelab/saved_schedule.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "racelab/input_error.h"

namespace racelab {

sched::ScheduleFile program_schedule_file(std::string subject,
                                          std::string strategy,
                                          std::uint64_t seed,
                                          const std::vector<int>& decisions) {
  sched::ScheduleFile file;
  file.subject = std::move(subject);
  file.scenario = "explore";
  file.mode = kProgramScheduleMode;
  file.strategy = std::move(strategy);
  file.seed = seed;
  const int threads =
      decisions.empty()
          ? 1
          : *std::max_element(decisions.begin(), decisions.end()) + 1;
  file.program.push_back("main");
  for (int t = 1; t < threads; ++t) {
    file.program.push_back("thread " + std::to_string(t));
  }
  file.decisions = decisions;
  return file;
}

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

std::string read_schedule_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(
        path + ": cannot read the schedule file: " + std::strerror(errno));
  }
  std::string text(sched::ScheduleFile::kMaxBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError(path + ": cannot read the schedule file");
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;  // parse_schedule refuses one byte over the limit
}

void write_schedule_bytes(const std::string& path, std::string_view text) {
  const std::string temporary = path + ".racelab-tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write '" + path + "'");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + reason);
  }
}

LoadedSchedule load_schedule(const std::string& path,
                             const ReadScheduleBytes& read) {
  LoadedSchedule loaded;
  loaded.text = read(path);
  loaded.file = sched::parse_schedule(loaded.text, path, &loaded.lines);
  return loaded;
}

void save_schedule(const std::string& path, const sched::ScheduleFile& file,
                   const WriteScheduleBytes& write) {
  write(path, sched::write_schedule(file));
}

}  // namespace racelab
