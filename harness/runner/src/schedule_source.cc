// Reading a schedule file's bytes once, with a size limit, from a regular
// file or a pipe; see schedule_source.h.
#include "racelab/schedule_source.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/runner.h"

namespace racelab {
namespace {

constexpr std::size_t kLimit = sched::ScheduleFile::kMaxBytes;
constexpr int kFirstFreeFd = 5;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw InputError(absl::StrCat(name, ": ", what));
}

[[noreturn]] void fail_errno(const std::string& name, const std::string& what) {
  fail(name, absl::StrCat(what, ": ", std::strerror(errno)));
}

[[noreturn]] void too_large(const std::string& name) {
  fail(name, "schedule file larger than the 4 MiB limit");
}

// What a file that is neither regular nor a pipe is, for the message.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

bool readable_kind(mode_t mode) { return S_ISREG(mode) || S_ISFIFO(mode); }

[[noreturn]] void refuse_kind(const std::string& name, mode_t mode) {
  fail(name, absl::StrCat("is ", kind_of(mode),
                          ", not a schedule file (a regular file or a pipe)"));
}

// A regular file, from its start, at most kLimit + 1 bytes.
std::string read_regular(int fd, const std::string& name) {
  std::string text;
  char buffer[65536];
  off_t offset = 0;
  for (;;) {
    const std::size_t want = std::min(sizeof buffer, kLimit + 1 - text.size());
    const ssize_t n = ::pread(fd, buffer, want, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(name, "cannot read the schedule file");
    }
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    offset += n;
    if (text.size() > kLimit) too_large(name);
  }
}

// A pipe or FIFO, to its end. Non-blocking: with no writer left, read()
// reports the end at once; with a writer that sends nothing, poll() gives up
// after kScheduleSourceIdleMs.
std::string read_pipe(int fd, const std::string& name) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    fail_errno(name, "cannot read the schedule file");
  std::string text;
  char buffer[65536];
  for (;;) {
    const std::size_t want = std::min(sizeof buffer, kLimit + 1 - text.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
      if (text.size() > kLimit) too_large(name);
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      fail_errno(name, "cannot read the schedule file");
    pollfd p = {fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, kScheduleSourceIdleMs);
    if (ready < 0 && errno != EINTR)
      fail_errno(name, "cannot read the schedule file");
    if (ready == 0) {
      fail(name, absl::StrCat("the pipe sent nothing for ",
                              kScheduleSourceIdleMs / 1000,
                              " s (its writer is alive but silent)"));
    }
  }
  if (text.empty())
    fail(name, "nothing to read (a pipe or FIFO with no writer)");
  return text;
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_schedule_fd(int fd, const std::string& name) {
  struct stat st;
  if (::fstat(fd, &st) != 0) fail_errno(name, "cannot read the schedule file");
  if (!readable_kind(st.st_mode)) refuse_kind(name, st.st_mode);
  if (S_ISREG(st.st_mode)) {
    if (static_cast<std::uint64_t>(st.st_size) > kLimit) too_large(name);
    return read_regular(fd, name);
  }
  return read_pipe(fd, name);
}

std::string read_schedule_source(const std::string& path) {
  // Look before opening: opening a device can have effects of its own.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    fail_errno(path, "cannot open the schedule file");
  if (!readable_kind(st.st_mode)) refuse_kind(path, st.st_mode);
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  Descriptor fd(
      ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) fail_errno(path, "cannot open the schedule file");
  return read_schedule_fd(fd.get(), path);
}

int schedule_memfd(std::string_view text) {
  const int fd =
      ::memfd_create("racelab-schedule", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    throw std::runtime_error(
        absl::StrCat("memfd_create: ", std::strerror(errno)));
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      throw std::runtime_error(absl::StrCat(
          "cannot write the schedule for the run: ", std::strerror(error)));
    }
    done += static_cast<std::size_t>(n);
  }
  // The run reads exactly what the parent checked.
  if (::fcntl(fd, F_ADD_SEALS,
              F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::runtime_error(absl::StrCat(
        "cannot seal the schedule for the run: ", std::strerror(error)));
  }
  // Above the descriptors a child's are set up on (0 to 4), so that setting
  // those up cannot overwrite this one before it is passed on.
  if (fd < kFirstFreeFd) {
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, kFirstFreeFd);
    const int error = errno;
    ::close(fd);
    if (moved < 0) {
      throw std::runtime_error(absl::StrCat(
          "cannot pass the schedule to the run: ", std::strerror(error)));
    }
    return moved;
  }
  return fd;
}

}  // namespace racelab
