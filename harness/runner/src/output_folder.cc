// The claimed, swapped-in output folder; see output_folder.h.
#include "racelab/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "racelab/atomic_file.h"
#include "racelab/runner.h"
#include "report_set.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

// ".tmp-<pid>-XXXXXX": what the staging folder adds to the folder's name.
constexpr std::size_t kStagingSuffix = 20;
constexpr std::size_t kNameMax = 255;

bool is_leftover(const std::string& entry, const std::string& name) {
  for (const char* kind : {".tmp-", ".old-"}) {
    const std::string prefix = name + kind;
    if (!entry.starts_with(prefix)) continue;
    const std::string rest = entry.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.size() - dash != 7)
      continue;
    bool digits = true;
    for (std::size_t i = 0; i < dash; ++i)
      digits = digits && rest[i] >= '0' && rest[i] <= '9';
    if (digits) return true;
  }
  return false;
}

// Six random letters or digits, for a name nobody else uses.
std::string random_tail() {
  static constexpr char kChars[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::string tail(6, 'x');
  for (char& c : tail) c = kChars[device() % (sizeof(kChars) - 1)];
  return tail;
}

// The open folder `fd` as a path that reaches it and nothing swapped in
// under its name later; `fallback` where /proc is not there.
fs::path path_of_open_folder(int fd, const fs::path& fallback) {
  const fs::path proc = absl::StrCat("/proc/self/fd/", fd);
  struct stat by_fd, by_path;
  if (::fstat(fd, &by_fd) == 0 && ::stat(proc.c_str(), &by_path) == 0 &&
      by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino) {
    return proc;
  }
  return fallback;
}

}  // namespace

OutputFolder::OutputFolder(std::string flag, const fs::path& dir)
    : flag_(std::move(flag)) {
  auto reject = [&](const std::string& reason) {
    for (int* fd : {&staging_fd_, &lock_fd_, &parent_fd_}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
    throw InputError(absl::StrCat(flag_, ": cannot use '", dir.string(),
                                  "' as the output folder: ", reason));
  };
  std::string text = dir.string();
  if (text.empty()) reject("empty path");
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  std::error_code ec;
  const fs::path path = fs::absolute(fs::path(text), ec).lexically_normal();
  if (ec) reject(ec.message());
  name_ = path.filename().string();
  if (name_.empty() || name_ == "." || name_ == "..") {
    reject("name a folder to be replaced as a whole (for example DIR/gate)");
  }
  if (name_.size() + kStagingSuffix > kNameMax) {
    reject(absl::StrCat("the name is too long (at most ",
                        kNameMax - kStagingSuffix,
                        " characters: the staging folder beside it adds ",
                        kStagingSuffix, ")"));
  }
  dir_ = path;
  const fs::path parent = path.parent_path();
  struct stat st;
  if (::stat(parent.c_str(), &st) != 0) {
    // A missing parent is created; anything else in the way is refused.
    if (errno != ENOENT) reject(errno_text(errno));
    fs::create_directories(parent, ec);
    if (ec) reject(ec.message());
  }
  parent_fd_ = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd_ < 0) reject(errno_text(errno));
  // A folder that is not racelab's to replace is refused before DIR.lock is
  // created, and again once the lock is held.
  if (std::string problem = target_problem(); !problem.empty()) reject(problem);

  const std::string lock_name = name_ + ".lock";
  lock_fd_ =
      ::openat(parent_fd_, lock_name.c_str(),
               O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (lock_fd_ < 0 && errno == ELOOP) {
    reject(absl::StrCat("'", (parent / lock_name).string(),
                        "' is a symbolic link (racelab locks only a file of "
                        "its own there)"));
  }
  if (lock_fd_ < 0) reject(errno_text(errno));
  if (::fstat(lock_fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    reject(absl::StrCat("'", (parent / lock_name).string(),
                        "' is not a regular file (racelab locks only a file "
                        "of its own there)"));
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      reject(absl::StrCat("another racelab command is writing it (it holds '",
                          (parent / lock_name).string(), "')"));
    }
    reject(errno_text(error));
  }
  if (std::string problem = target_problem(); !problem.empty()) reject(problem);

  // Holding the lock, nobody else uses the staging folders of this name:
  // those left are from commands that were killed. Only real folders that
  // hold nothing but racelab's files go.
  std::vector<std::string> names;
  list_folder(parent_fd_, names);
  for (const std::string& entry : names) {
    if (is_leftover(entry, name_))
      remove_report_set(parent_fd_, entry, /*need_marker=*/false);
  }

  for (int attempt = 0;; ++attempt) {
    staging_name_ =
        absl::StrCat(name_, ".tmp-", ::getpid(), "-", random_tail());
    if (::mkdirat(parent_fd_, staging_name_.c_str(), 0700) == 0) break;
    if (errno != EEXIST || attempt == 100) reject(errno_text(errno));
  }
  staging_fd_ = ::openat(parent_fd_, staging_name_.c_str(),
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int error = staging_fd_ < 0 ? errno : 0;
  if (error == 0 && ::fchmod(staging_fd_, 0755) != 0) error = errno;
  if (error == 0) error = write_report_set_marker(staging_fd_);
  if (error != 0) {
    if (staging_fd_ >= 0) ::close(staging_fd_);
    staging_fd_ = -1;
    remove_report_set(parent_fd_, staging_name_, /*need_marker=*/false);
    reject(errno_text(error));
  }
  staging_ = path_of_open_folder(staging_fd_, parent / staging_name_);
}

OutputFolder::~OutputFolder() {
  if (staging_fd_ >= 0) ::close(staging_fd_);
  if (!committed_ && !staging_name_.empty())
    remove_report_set(parent_fd_, staging_name_, /*need_marker=*/false);
  if (lock_fd_ >= 0) ::close(lock_fd_);
  if (parent_fd_ >= 0) ::close(parent_fd_);
}

std::string OutputFolder::target_problem() const {
  struct stat st, parent_st;
  if (::fstatat(parent_fd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? "" : errno_text(errno);
  if (S_ISLNK(st.st_mode)) {
    return "it is a symbolic link (racelab replaces a real folder as a "
           "whole and never one a link points to)";
  }
  if (!S_ISDIR(st.st_mode)) return "it exists and is not a folder";
  if (::fstat(parent_fd_, &parent_st) != 0) return errno_text(errno);
  if (parent_st.st_dev != st.st_dev) {
    return "it is a mount point, which cannot be swapped for a new set of "
           "reports; name a folder inside it";
  }
  const int fd = ::openat(parent_fd_, name_.c_str(),
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno_text(errno);
  const std::string problem = why_not_a_report_set(inspect_report_set(fd));
  ::close(fd);
  return problem;
}

void OutputFolder::commit() {
  auto fail = [&](int error) {
    throw OutputError(
        absl::StrCat("cannot replace '", dir_.string(),
                     "' with the new reports: ", errno_text(error)));
  };
  // The writers may have failed to sync; the swap must not publish a set
  // that a crash could lose.
  ::fsync(staging_fd_);
  // DIR may have changed while the reports were written.
  if (std::string problem = target_problem(); !problem.empty()) {
    throw InputError(absl::StrCat(flag_, ": cannot use '", dir_.string(),
                                  "' as the output folder: ", problem));
  }
  struct stat st;
  const bool exists =
      ::fstatat(parent_fd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  const char* staging = staging_name_.c_str();
  const char* name = name_.c_str();
  std::string previous;
  const unsigned int how = exists ? RENAME_EXCHANGE : RENAME_NOREPLACE;
  if (::renameat2(parent_fd_, staging, parent_fd_, name, how) == 0) {
    if (exists) previous = staging_name_;  // it now holds the previous set
  } else if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    fail(errno);
  } else if (!exists) {
    // No renameat2 here. A folder renamed over a name replaces at most an
    // empty folder that appeared meanwhile; anything else fails.
    if (::renameat(parent_fd_, staging, parent_fd_, name) != 0) fail(errno);
  } else {
    // No atomic exchange here: move the old set aside, then the new one in.
    std::string aside;
    for (int attempt = 0;; ++attempt) {
      aside = absl::StrCat(name_, ".old-", ::getpid(), "-", random_tail());
      if (::mkdirat(parent_fd_, aside.c_str(), 0700) == 0) break;
      if (errno != EEXIST || attempt == 100) fail(errno);
    }
    if (::renameat(parent_fd_, name, parent_fd_, aside.c_str()) != 0) {
      const int error = errno;
      ::unlinkat(parent_fd_, aside.c_str(), AT_REMOVEDIR);
      fail(error);
    }
    if (::renameat(parent_fd_, staging, parent_fd_, name) != 0) {
      const int error = errno;
      ::renameat(parent_fd_, aside.c_str(), parent_fd_, name);
      fail(error);
    }
    previous = aside;
  }
  committed_ = true;
  ::fsync(parent_fd_);
  if (!previous.empty())
    remove_report_set(parent_fd_, previous, /*need_marker=*/false);
}

std::string OutputFolder::explain(const std::string& what) const {
  std::string text = what;
  const std::string staging = staging_.string();
  for (std::size_t at = text.find(staging); at != std::string::npos;
       at = text.find(staging, at)) {
    text.replace(at, staging.size(), dir_.string());
    at += dir_.string().size();
  }
  struct stat st;
  const bool previous =
      parent_fd_ >= 0 && ::fstatat(parent_fd_, name_.c_str(), &st, 0) == 0;
  return absl::StrCat(text, previous ? "; the folder keeps its previous reports"
                                     : "; nothing was written");
}

}  // namespace racelab
