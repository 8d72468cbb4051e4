// The claimed, swapped-in output folder; see output_folder.h.
#include "output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "atomic_file.h"
#include "racelab/runner.h"

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

void sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

OutputFolder::OutputFolder(std::string flag, const fs::path& dir)
    : flag_(std::move(flag)) {
  auto reject = [&](const std::string& reason) {
    throw InputError(absl::StrCat(flag_, ": cannot use '", dir.string(),
                                  "' as the output folder: ", reason));
  };
  std::string text = dir.string();
  if (text.empty()) reject("empty path");
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  std::error_code ec;
  fs::path path = fs::absolute(fs::path(text), ec).lexically_normal();
  if (ec) reject(ec.message());
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    path = fs::canonical(path, ec);
    if (ec) reject(ec.message());
  }
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..") {
    reject("name a folder to be replaced as a whole (for example DIR/gate)");
  }
  bool exists = false;
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) reject("it exists and is not a folder");
    exists = true;
  } else if (errno != ENOENT) {
    reject(errno_text(errno));
  }
  if (name.size() + kStagingSuffix > kNameMax) {
    reject(absl::StrCat("the name is too long (at most ",
                        kNameMax - kStagingSuffix,
                        " characters: the staging folder beside it adds ",
                        kStagingSuffix, ")"));
  }
  const fs::path parent = path.parent_path();
  fs::create_directories(parent, ec);
  if (ec) reject(ec.message());
  struct stat parent_st;
  if (::stat(parent.c_str(), &parent_st) != 0) reject(errno_text(errno));
  if (exists && parent_st.st_dev != st.st_dev) {
    reject(
        "it is a mount point, which cannot be swapped for a new set of "
        "reports; name a folder inside it");
  }

  const fs::path lock_path = parent / (name + ".lock");
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) reject(errno_text(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (error == EWOULDBLOCK) {
      reject(absl::StrCat("another racelab command is writing it (it holds '",
                          lock_path.string(), "')"));
    }
    reject(errno_text(error));
  }

  // Holding the lock, nobody else uses the staging folders of this name:
  // those left are from commands that were killed.
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, ec)) {
    if (is_leftover(entry.path().filename().string(), name)) {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }

  std::string staging =
      (parent / absl::StrCat(name, ".tmp-", ::getpid(), "-XXXXXX")).string();
  if (::mkdtemp(staging.data()) == nullptr) {
    const int error = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    reject(errno_text(error));
  }
  ::chmod(staging.c_str(), 0755);
  dir_ = path;
  staging_ = staging;
}

OutputFolder::~OutputFolder() {
  if (!committed_ && !staging_.empty()) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void OutputFolder::commit() {
  auto fail = [&](int error) {
    throw OutputError(
        absl::StrCat("cannot replace '", dir_.string(),
                     "' with the new reports: ", errno_text(error)));
  };
  sync_folder(staging_);
  struct stat st;
  const bool exists = ::stat(dir_.c_str(), &st) == 0;
  fs::path previous;
  if (!exists) {
    if (::rename(staging_.c_str(), dir_.c_str()) != 0) fail(errno);
  } else if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(),
                         RENAME_EXCHANGE) == 0) {
    previous = staging_;  // it now holds the previous set
  } else if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) {
    // No atomic exchange here: move the old set aside, then the new one in.
    std::string aside =
        (dir_.parent_path() /
         absl::StrCat(dir_.filename().string(), ".old-", ::getpid(), "-XXXXXX"))
            .string();
    if (::mkdtemp(aside.data()) == nullptr) fail(errno);
    if (::rename(dir_.c_str(), aside.c_str()) != 0) {
      const int error = errno;
      ::rmdir(aside.c_str());
      fail(error);
    }
    if (::rename(staging_.c_str(), dir_.c_str()) != 0) {
      const int error = errno;
      ::rename(aside.c_str(), dir_.c_str());
      fail(error);
    }
    previous = aside;
  } else {
    fail(errno);
  }
  committed_ = true;
  sync_folder(dir_.parent_path());
  if (!previous.empty()) {
    std::error_code ignored;
    fs::remove_all(previous, ignored);
  }
}

std::string OutputFolder::explain(const std::string& what) const {
  std::string text = what;
  const std::string staging = staging_.string();
  for (std::size_t at = text.find(staging); at != std::string::npos;
       at = text.find(staging, at)) {
    text.replace(at, staging.size(), dir_.string());
    at += dir_.string().size();
  }
  std::error_code ec;
  const bool previous = fs::exists(dir_, ec);
  return absl::StrCat(text, previous ? "; the folder keeps its previous reports"
                                     : "; nothing was written");
}

}  // namespace racelab
