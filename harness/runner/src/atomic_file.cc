// The atomic file writer and the output-file check; see atomic_file.h.
#include "racelab/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "racelab/runner.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

fs::path folder_of(const fs::path& path) {
  fs::path dir = path.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// The template of a temporary file beside `path`: ".NAME.tmp-XXXXXX", or
// ".racelab-XXXXXX" when NAME is so long that the suffix would not fit.
std::string temp_template(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string stem = name.size() <= 200 ? absl::StrCat(".", name, ".tmp")
                                              : std::string(".racelab");
  return (folder_of(path) / absl::StrCat(stem, "-XXXXXX")).string();
}

// Writes all of `content` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// fsync() of a folder, so that a rename in it survives a crash. File systems
// that cannot sync a folder say EINVAL; that is not a failure.
int sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  int error = 0;
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) error = errno;
  ::close(fd);
  return error;
}

}  // namespace

std::string errno_text(int error) { return std::strerror(error); }

void write_file_atomically(const fs::path& path, std::string_view content) {
  auto fail = [&](int error) {
    throw OutputError(absl::StrCat("cannot write '", path.string(),
                                   "': ", errno_text(error)));
  };
  std::string tmp = temp_template(path);
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) fail(errno);
  int error = ::fchmod(fd, 0644) == 0 ? 0 : errno;
  if (error == 0) error = write_all(fd, content);
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(tmp.c_str());
    fail(error);
  }
  if (int e = sync_folder(folder_of(path)); e != 0) fail(e);
}

void check_output_file(std::string_view flag, const fs::path& path) {
  auto reject = [&](const std::string& reason) {
    throw InputError(absl::StrCat(std::string(flag), ": cannot write '",
                                  path.string(), "': ", reason));
  };
  if (path.empty()) reject("empty path");
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) reject("it is a folder");
    if (!S_ISREG(st.st_mode)) {
      reject(
          "not a regular file (the file is written beside it and renamed "
          "over it)");
    }
  } else if (errno != ENOENT) {
    reject(errno_text(errno));
  }
  std::string probe = (folder_of(path) / ".racelab-probe-XXXXXX").string();
  const int fd = ::mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0) reject(errno_text(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace racelab
