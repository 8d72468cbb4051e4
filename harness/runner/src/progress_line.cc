// The progress line; see racelab/progress_line.h.
#include "racelab/progress_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_format.h"

namespace racelab {
namespace {

// The terminal's width, or 80 when it does not say.
std::size_t width_of(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 80;
}

}  // namespace

ProgressLine::ProgressLine(int fd) : fd_(fd), on_(isatty(fd) != 0) {}

void ProgressLine::write_all(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote =
        ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // a progress line is never worth an error
    done += static_cast<std::size_t>(wrote);
  }
}

void ProgressLine::show(const std::string& text, bool now) {
  if (!on_) return;
  std::lock_guard lock(mu_);
  const auto at = std::chrono::steady_clock::now();
  if (!now && shown_ && at - last_ < std::chrono::milliseconds(100)) return;
  last_ = at;
  shown_ = true;
  // One line: cut to the terminal's width, so that it never wraps.
  const std::size_t room = width_of(fd_) - 1;
  write_all("\r" + (text.size() > room ? text.substr(0, room) : text) +
            "\x1b[K");
}

void ProgressLine::clear() {
  if (!on_) return;
  std::lock_guard lock(mu_);
  if (!shown_) return;
  shown_ = false;
  write_all("\r\x1b[K");
}

std::string progress_time(std::chrono::steady_clock::duration elapsed) {
  const double seconds = std::chrono::duration<double>(elapsed).count();
  if (seconds < 60) return absl::StrFormat("%.1f s", seconds);
  const auto whole = static_cast<long>(seconds);
  return absl::StrFormat("%ld min %02ld s", whole / 60, whole % 60);
}

}  // namespace racelab
