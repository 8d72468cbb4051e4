// The entries of racelab's report set and their careful removal; see
// report_set.h.
#include "report_set.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"

namespace racelab {
namespace {

constexpr std::string_view kReportFiles[] = {"results.json",  "junit.xml",
                                             "results.sarif", "summary.md",
                                             "index.html",    kReportSetMarker};
constexpr char kLogs[] = "logs";

// A temporary of write_file_atomically(): ".NAME.tmp-XXXXXX" for a NAME that
// `is_final` accepts, or ".racelab-XXXXXX".
template <typename IsFinal>
bool is_temporary(std::string_view name, IsFinal is_final) {
  auto random_tail = [](std::string_view text, std::string_view prefix) {
    return text.size() == prefix.size() + 6 && text.starts_with(prefix);
  };
  if (random_tail(name, ".racelab-")) return true;
  if (!name.starts_with('.') || name.size() < 12) return false;
  const std::string_view stem = name.substr(1, name.size() - 12);
  return random_tail(name.substr(1 + stem.size()), ".tmp-") && is_final(stem);
}

bool is_report_file(std::string_view name) {
  return std::find(std::begin(kReportFiles), std::end(kReportFiles), name) !=
         std::end(kReportFiles);
}

bool is_log_file(std::string_view name) {
  return name.size() > 4 && name.ends_with(".log") && !name.starts_with('.');
}

bool is_own_file(std::string_view name) {
  return is_report_file(name) || is_temporary(name, is_report_file);
}

bool is_own_log(std::string_view name) {
  return is_log_file(name) || is_temporary(name, is_log_file);
}

// The type of `name` in `dir_fd` without following a link; 0 if it is gone.
mode_t type_of(int dir_fd, const std::string& name) {
  struct stat st;
  if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  return st.st_mode & S_IFMT;
}

int open_folder_nofollow(int parent_fd, const std::string& name) {
  return ::openat(parent_fd, name.c_str(),
                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

void count(ReportSetContents& contents, bool own, const std::string& name) {
  if (own) {
    ++contents.own;
    return;
  }
  if (contents.foreign++ == 0) contents.first_foreign = name;
}

}  // namespace

int list_folder(int dir_fd, std::vector<std::string>& names) {
  const int fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    const int error = errno;
    ::close(fd);
    return error;
  }
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  const int error = errno;
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return error;
}

std::string report_set_marker_text() {
  return "racelab wrote this set of reports and replaces it as a whole\n";
}

int write_report_set_marker(int dir_fd) {
  const int fd =
      ::openat(dir_fd, kReportSetMarker,
               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  const std::string text = report_set_marker_text();
  int error = 0;
  if (::write(fd, text.data(), text.size()) !=
      static_cast<ssize_t>(text.size())) {
    error = errno == 0 ? EIO : errno;
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

ReportSetContents inspect_report_set(int dir_fd) {
  ReportSetContents contents;
  std::vector<std::string> names;
  contents.error = list_folder(dir_fd, names);
  for (const std::string& name : names) {
    const mode_t type = type_of(dir_fd, name);
    if (name == kLogs && type == S_IFDIR) {
      const int logs_fd = open_folder_nofollow(dir_fd, name);
      std::vector<std::string> logs;
      const int error = logs_fd < 0 ? errno : list_folder(logs_fd, logs);
      if (error != 0 && contents.error == 0) contents.error = error;
      for (const std::string& log : logs) {
        count(contents, is_own_log(log) && type_of(logs_fd, log) == S_IFREG,
              absl::StrCat(kLogs, "/", log));
      }
      if (logs_fd >= 0) ::close(logs_fd);
      ++contents.own;
      continue;
    }
    if (name == kReportSetMarker && type == S_IFREG) contents.has_marker = true;
    count(contents, is_own_file(name) && type == S_IFREG, name);
  }
  return contents;
}

std::string why_not_a_report_set(const ReportSetContents& contents) {
  if (contents.error != 0) {
    return absl::StrCat("cannot read it: ", std::strerror(contents.error));
  }
  if (contents.foreign > 0) {
    return absl::StrCat(
        "holds ", contents.foreign, " ",
        contents.foreign == 1 ? "entry" : "entries",
        " racelab did not write, such as '", contents.first_foreign,
        "' (racelab replaces only an empty folder or its own reports)");
  }
  if (contents.own > 0 && !contents.has_marker) {
    return absl::StrCat("holds files without racelab's marker '",
                        kReportSetMarker,
                        "' (racelab replaces only an empty folder or reports "
                        "it marked as its own)");
  }
  return "";
}

bool remove_report_set(int parent_fd, const std::string& name,
                       bool need_marker) {
  const int fd = open_folder_nofollow(parent_fd, name);
  if (fd < 0) return errno == ENOENT;
  const ReportSetContents contents = inspect_report_set(fd);
  if (contents.error != 0 || contents.foreign > 0 ||
      (need_marker && contents.own > 0 && !contents.has_marker)) {
    ::close(fd);
    return false;
  }
  std::vector<std::string> names;
  list_folder(fd, names);
  for (const std::string& entry : names) {
    const mode_t type = type_of(fd, entry);
    if (entry == kLogs && type == S_IFDIR) {
      const int logs_fd = open_folder_nofollow(fd, entry);
      if (logs_fd < 0) continue;
      std::vector<std::string> logs;
      list_folder(logs_fd, logs);
      for (const std::string& log : logs) {
        if (is_own_log(log) && type_of(logs_fd, log) == S_IFREG)
          ::unlinkat(logs_fd, log.c_str(), 0);
      }
      ::close(logs_fd);
      ::unlinkat(fd, entry.c_str(), AT_REMOVEDIR);
    } else if (is_own_file(entry) && type == S_IFREG) {
      ::unlinkat(fd, entry.c_str(), 0);
    }
  }
  ::close(fd);
  return ::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) == 0;
}

}  // namespace racelab
