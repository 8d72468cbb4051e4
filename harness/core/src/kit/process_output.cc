// The helpers of process_output.h.
#include "racelab/process_output.h"

#include <unistd.h>

#include <cstring>

#include "absl/strings/str_cat.h"

namespace racelab {

std::string read_all(int fd) {
  std::string text;
  char buffer[8192];
  lseek(fd, 0, SEEK_SET);
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

std::string tail(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t start = text.size() - bytes;
  const std::size_t newline = text.find('\n', start);
  if (newline != std::string::npos) start = newline + 1;
  return "...\n" + text.substr(start);
}

std::string signal_text(int signal) {
  const char* name = sigabbrev_np(signal);
  return absl::StrCat("SIG", name != nullptr ? name : "?", " (",
                      strsignal(signal), ")");
}

}  // namespace racelab
