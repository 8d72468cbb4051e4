// Reads what the threads of a hung program are doing; see thread_stacks.h.
#include "thread_stacks.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "racelab/child_registry.h"
#include "racelab/syscall_name.h"

namespace racelab {
namespace {

constexpr std::size_t kMaxStackBytes = 64 << 10;

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Keeps gdb's thread headers and frames, nothing of its chatter.
std::string stack_lines(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Thread ", 0) == 0 || line.rfind("#", 0) == 0) {
      if (line.rfind("Thread ", 0) == 0 && !out.empty()) out += "\n";
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::string describe_threads(pid_t pid) {
  const std::string tasks = absl::StrCat("/proc/", pid, "/task");
  DIR* dir = ::opendir(tasks.c_str());
  if (dir == nullptr) return "";
  std::vector<long> tids;
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long tid = std::strtol(entry->d_name, &end, 10);
    if (end != entry->d_name && *end == '\0') tids.push_back(tid);
  }
  ::closedir(dir);
  std::sort(tids.begin(), tids.end());
  std::string out;
  for (long tid : tids) {
    const std::string base = absl::StrCat(tasks, "/", tid, "/");
    const std::string name = first_line(base + "comm");
    // stat: "tid (comm) S ...": the state follows the last ')'.
    const std::string stat = first_line(base + "stat");
    const std::size_t paren = stat.rfind(')');
    const char state = paren != std::string::npos && paren + 2 < stat.size()
                           ? stat[paren + 2]
                           : '?';
    absl::StrAppend(&out, "thread ", tid, " '", name, "': state ",
                    std::string(1, state));
    const std::string call = first_line(base + "syscall");
    char* end = nullptr;
    const long number = std::strtol(call.c_str(), &end, 10);
    if (end != call.c_str()) {
      const char* known = syscall_name(number);
      absl::StrAppend(&out, ", in system call ", number,
                      known != nullptr ? absl::StrCat(" (", known, ")") : "");
    } else if (!call.empty()) {
      absl::StrAppend(&out, ", ", call);  // "running"
    }
    const std::string wchan = first_line(base + "wchan");
    if (!wchan.empty() && wchan != "0") {
      absl::StrAppend(&out, ", waits in ", wchan);
    }
    out += "\n";
  }
  return out;
}

std::string gdb_stacks(pid_t pid, std::chrono::seconds limit) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  const std::string pid_text = std::to_string(pid);
  const pid_t gdb = ::fork();
  if (gdb < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return "";
  }
  if (gdb == 0) {
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    const char* argv[] = {"gdb",
                          "-nx",
                          "-batch",
                          "-p",
                          pid_text.c_str(),
                          "-ex",
                          "set pagination off",
                          "-ex",
                          "thread apply all bt",
                          nullptr};
    ::execvp("gdb", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  child_registry().add(gdb);
  ::close(pipe_fds[1]);
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd fd{pipe_fds[0], POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR) {
      break;
    }
    char buffer[4096];
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      break;
    }
    if (text.size() < 4 * kMaxStackBytes) {
      text.append(buffer, static_cast<std::size_t>(got));
    }
  }
  ::close(pipe_fds[0]);
  if (timed_out) ::kill(gdb, SIGKILL);
  int status = 0;
  while (::waitpid(gdb, &status, 0) < 0 && errno == EINTR) {
  }
  child_registry().remove(gdb);
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) == 127) return "";
  std::string stacks = stack_lines(text);
  if (stacks.size() > kMaxStackBytes) {
    stacks.resize(kMaxStackBytes);
    stacks += "\n[... cut at 64 KiB ...]\n";
  }
  return stacks;
}

}  // namespace racelab
