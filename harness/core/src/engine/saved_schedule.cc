// Schedule files on disk (racelab/saved_schedule.h).
#include "racelab/saved_schedule.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/fnv1a.h"
#include "racelab/internal/input_error.h"

namespace racelab {
namespace {

constexpr char kDigestKey[] = "program.digest";

// FNV-1a, 64 bits, over the subject, the scenario and the program lines: a
// check that a file's parts still belong together, not a signature.
std::string program_digest(const sched::ScheduleFile& file) {
  std::uint64_t hash = kFnv1aBasis;
  auto add = [&](std::string_view text) {
    hash = fnv1a(hash, text);
    hash = fnv1a(hash, static_cast<unsigned char>(0xff));  // no UTF-8 byte
  };
  add(file.subject);
  add(file.scenario);
  for (const std::string& line : file.program_lines()) add(line);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(hash));
  return std::string("fnv1a64:") + text;
}

}  // namespace

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
  if (schedule.memory_model) file.extra.emplace_back("memory_model", "on");
  file.extra.emplace_back(kDigestKey, program_digest(file));
  return file;
}

std::string file_name_part(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

std::string schedule_file_in(std::string_view folder,
                             std::initializer_list<std::string_view> parts) {
  std::string path = absl::StrCat(std::string(folder), "/racelab");
  for (std::string_view part : parts) {
    absl::StrAppend(&path, "-", file_name_part(part));
  }
  return path + ".schedule";
}

std::string private_schedule_folder(std::string* error) {
  auto refuse = [&](const std::string& why) {
    if (error != nullptr) *error = why;
    return std::string();
  };
  std::string folder;
  if (const char* state = std::getenv("XDG_STATE_HOME");
      state != nullptr && state[0] == '/') {
    folder = state;
  } else if (const char* home = std::getenv("HOME");
             home != nullptr && home[0] == '/') {
    folder = std::string(home) + "/.local";
    ::mkdir(folder.c_str(), 0700);
    folder += "/state";
  } else {
    return refuse("neither XDG_STATE_HOME nor HOME is an absolute path");
  }
  ::mkdir(folder.c_str(), 0700);
  for (const char* part : {"racelab", "schedules"}) {
    folder += std::string("/") + part;
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
      return refuse(folder + ": " + std::strerror(errno));
    struct stat st;
    if (::lstat(folder.c_str(), &st) != 0)
      return refuse(folder + ": " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) return refuse(folder + ": not a folder");
    if (st.st_uid != ::geteuid())
      return refuse(folder + ": owned by another user");
    if ((st.st_mode & 077) != 0)
      return refuse(folder + ": open to other users");
  }
  return folder;
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
  auto fail = [&](int error) {
    throw std::runtime_error("cannot write '" + path +
                             "': " + std::strerror(error));
  };
  // A new temporary beside `path`, created exclusively (never a planted
  // link), written whole and flushed, then renamed over `path`.
  const std::size_t slash = path.rfind('/');
  const std::string folder =
      slash == std::string::npos ? "." : path.substr(0, slash);
  std::string temporary = folder + "/.racelab-schedule-XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) fail(errno);
  int error = ::fchmod(fd, 0644) == 0 ? 0 : errno;
  for (std::string_view rest = text; error == 0 && !rest.empty();) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(temporary.c_str(), path.c_str()) != 0)
    error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    fail(error);
  }
}

LoadedSchedule load_schedule(const std::string& path,
                             const ReadScheduleBytes& read) {
  LoadedSchedule loaded;
  loaded.text = read(path);
  loaded.file = sched::parse_schedule(loaded.text, path, &loaded.lines);
  return loaded;
}

void check_program_digest(const sched::ScheduleFile& file,
                          const sched::ScheduleFileLines& lines,
                          const std::string& path) {
  // Every version 2 schedule of a case racelab writes has the digest
  // (schedule_file_for); version 1 files came before it.
  const bool must_have = lines.version >= 2 && file.mode == "controlled";
  if (must_have && lines.of_key(kDigestKey) == 0) {
    throw InputError(path + ": no " + kDigestKey +
                     " line, which every version 2 schedule of a case has "
                     "(the file was changed after it was written)");
  }
  for (const auto& [key, value] : file.extra) {
    if (key != kDigestKey) continue;
    if (value != program_digest(file)) {
      throw InputError(path + ":" + std::to_string(lines.of_key(kDigestKey)) +
                       ": the subject, scenario and program do not match " +
                       kDigestKey +
                       " (the file was changed after it was written)");
    }
  }
}

void save_schedule(const std::string& path, const sched::ScheduleFile& file,
                   const WriteScheduleBytes& write) {
  write(path, sched::write_schedule(file));
}

}  // namespace racelab
