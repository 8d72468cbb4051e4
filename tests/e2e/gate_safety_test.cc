// End-to-end tests of what the command line does when the world around it
// misbehaves: a stdout whose reader is gone, an error message that carries
// line breaks. Each test runs the real racelab binary as a child process.
// (tests/e2e/kill_gate.sh checks that nothing outlives a gate killed with
// SIGKILL.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

const std::string kRacelab = RACELAB_BINARY;

#if defined(RACELAB_TSAN)
constexpr bool kTsanBuild = true;
#else
constexpr bool kTsanBuild = false;
#endif

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("racelab_gate_safety_" + std::to_string(getpid())) /
                       name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A racelab command started in the background, its stdout and stderr in
// files of `dir` (stdout: `stdout_fd` instead, when given).
struct Started {
  pid_t pid = -1;
  fs::path out, err;
};

Started start(const std::vector<std::string>& args, const fs::path& dir,
              int stdout_fd = -1) {
  Started s;
  s.out = dir / "stdout";
  s.err = dir / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, s.out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addopen(&actions, 2, s.err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> line = {kRacelab};
  line.insert(line.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : line) argv.push_back(a.data());
  argv.push_back(nullptr);
  EXPECT_EQ(posix_spawn(&s.pid, kRacelab.c_str(), &actions, nullptr,
                        argv.data(), environ),
            0);
  posix_spawn_file_actions_destroy(&actions);
  return s;
}

// The exit status, 128 + the signal for a process a signal ended.
int wait_for(const Started& s) {
  int status = 0;
  if (::waitpid(s.pid, &status, 0) != s.pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// `racelab list | head -c 0`, made deterministic: stdout is a pipe whose
// reader is gone before the command starts, so every write to it fails.
int status_with_closed_stdout(const std::vector<std::string>& args,
                              const std::string& name) {
  const fs::path dir = fresh_dir(name);
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  ::close(fds[0]);
  const Started command = start(args, dir, fds[1]);
  ::close(fds[1]);
  const int status = wait_for(command);
  EXPECT_EQ(slurp(command.err), "") << name;
  return status;
}

TEST(CommandLine, ListAndDemoKeepTheirStatusWhenStdoutIsClosed) {
  EXPECT_EQ(status_with_closed_stdout({"list"}, "list"), 0);
  EXPECT_EQ(status_with_closed_stdout({"list", "--truth-table"}, "truth"), 0);
  EXPECT_EQ(status_with_closed_stdout({"demo"}, "demo_list"), 0);
  if (!kTsanBuild) return;  // a demo runs its cases on the TSan build
  EXPECT_EQ(
      status_with_closed_stdout({"demo", "concurrent-map-write"}, "demo_named"),
      0);
}

// Every error is one line on stderr, whatever its message carries: a
// program's stderr tail ending in a line break, names with line breaks.
TEST(CommandLine, EveryErrorIsOneLine) {
  const std::vector<std::vector<std::string>> commands = {
      {"explore", "--", "/nonexistent/program"},
      {"run", "--subject", "no\nsuch\n", "--scenario", "x"},
      {"gate", "--subject", "\nnone\n\n"},
      {"list\n"},
      {"replay", "/nonexistent/\nfile"},
  };
  int i = 0;
  for (const std::vector<std::string>& args : commands) {
    const fs::path dir = fresh_dir("error_" + std::to_string(i++));
    const Started command = start(args, dir);
    EXPECT_EQ(wait_for(command), 2) << args.front();
    const std::string err = slurp(command.err);
    ASSERT_FALSE(err.empty()) << args.front();
    EXPECT_EQ(err.find('\n'), err.size() - 1)
        << args.front() << ": more than one line: " << err;
    EXPECT_EQ(err.rfind("racelab: ", 0), 0u) << err;
    EXPECT_EQ(err.find("  "), std::string::npos) << err;
  }
}

}  // namespace
