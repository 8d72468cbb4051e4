// End-to-end tests of what a gate and the command line do when the world
// around them misbehaves: a run's process killed from outside, a stdout whose
// reader is gone, an error message that carries line breaks. Each test runs
// the real racelab binary as a child process. (tests/e2e/kill_gate.sh checks
// that nothing outlives a gate killed with SIGKILL.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

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

// A child of `parent` that runs `racelab __child` (a case's runs), or -1.
pid_t find_run_process(pid_t parent) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(e.path() / "stat");
    const std::size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(stat.c_str() + paren + 1, " %c %d", &state, &ppid) != 2 ||
        ppid != parent) {
      continue;
    }
    if (slurp(e.path() / "cmdline").find("__child") != std::string::npos)
      return static_cast<pid_t>(std::stoi(name));
  }
  return -1;
}

// A fixed store's controlled case: four searches, made one after the other
// by one child process, which the test kills from outside.
const std::vector<std::string> kFixedGate = {"gate",
                                             "--mode",
                                             "controlled",
                                             "--subject",
                                             "checkpoint/mutex",
                                             "--scenario",
                                             "generated",
                                             "--controlled-runs",
                                             "4",
                                             "--jobs",
                                             "1"};

TEST(GateSafety, ARunKilledFromOutsideIsRetriedAndTheFixedStoreStaysClean) {
  if (!kTsanBuild) GTEST_SKIP() << "the gate runs on the ThreadSanitizer build";
  // The kill lands while a run is under way almost always; should it land
  // in the instant between two runs, no run was lost and none is retried,
  // so the gate is tried again (it must stay clean every time).
  bool retried = false;
  for (int attempt = 0; attempt < 3 && !retried; ++attempt) {
    const fs::path dir = fresh_dir("killed_run_" + std::to_string(attempt));
    std::vector<std::string> args = kFixedGate;
    args.insert(args.end(), {"--out", (dir / "gate").string()});
    const Started gate = start(args, dir);
    // The child is found by the process tree; the wait only backs up a gate
    // that never starts one.
    pid_t child = -1;
    const auto deadline = Clock::now() + std::chrono::minutes(2);
    while ((child = find_run_process(gate.pid)) < 0 && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_GT(child, 0) << "the gate started no run";
    ASSERT_EQ(::kill(child, SIGKILL), 0);
    ASSERT_EQ(wait_for(gate), 0)
        << slurp(gate.err) << slurp(gate.out)
        << " (a fixed store whose run was killed from outside still meets "
           "its expectation)";
    const nlohmann::json results =
        nlohmann::json::parse(slurp(dir / "gate" / "results.json"));
    ASSERT_EQ(results.at("cases").size(), 1u);
    const nlohmann::json& c = results.at("cases").at(0);
    EXPECT_TRUE(c.at("match").get<bool>()) << c.dump(2);
    EXPECT_EQ(c.at("observed"), "clean");
    EXPECT_EQ(c.at("runs"), 4) << "the killed run is made again, once";
    if (!c.contains("retried")) continue;
    retried = true;
    ASSERT_EQ(c.at("retried").size(), 1u) << c.dump(2);
    const nlohmann::json& r = c.at("retried").at(0);
    EXPECT_EQ(r.at("signal"), "SIGKILL");
    EXPECT_FALSE(r.at("ended_again").get<bool>());
    EXPECT_NE(r.at("why").get<std::string>().find("was retried"),
              std::string::npos);
    const std::string table = slurp(gate.out);
    EXPECT_NE(table.find("(retried)"), std::string::npos) << table;
    EXPECT_NE(table.find("RETRIED checkpoint/mutex x generated"),
              std::string::npos)
        << table;
    EXPECT_NE(slurp(dir / "gate" / "summary.md").find("## Retried runs"),
              std::string::npos);
  }
  EXPECT_TRUE(retried) << "no kill landed in a run in three gates";
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
