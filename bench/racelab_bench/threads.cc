// `racelab bench`, section "threads": what a schedule of a thread-heavy
// whole program costs under `racelab explore`, beside the same program run
// plainly, in one run: the conformance programs that keep 256 threads alive
// at once (many_threads_alive), detach 256 threads in a loop (detach_loop)
// and create 1,600 threads over a run, 4 at a time (thread_rounds). Wall
// time and CPU time (racelab and its children: CPU time does not grow with
// the machine's load); median of alternating rounds.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/program_explorer.h"

extern char** environ;

namespace racelab::bench_internal {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPrograms[] = {"many_threads_alive", "detach_loop",
                                     "thread_rounds"};

// Runs the program plainly (no channel), output to /dev/null, and waits for
// it; false if it did not exit 0.
bool run_plainly(const std::string& path) {
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

void threads_section(const BenchOptions& options, std::ostream& out) {
  const int schedules = options.quick ? 2 : 20;
  out << "== threads: thread-heavy whole programs under explore (pct, "
      << schedules << " schedules a search, fork server) beside a plain run, "
      << "median of " << kRounds << " alternating rounds ==\n"
      << "ms per schedule and ms per plain run, wall and CPU (racelab and its "
         "children)\n";
  out << absl::StrFormat("  %-20s %12s %12s %12s %12s %10s\n", "program",
                         "explore wall", "explore cpu", "plain wall",
                         "plain cpu", "sched/s");
  for (const char* name : kPrograms) {
    const std::string path =
        built_beside(options.self_exe,
                     absl::StrFormat("tests/conformance/conformance_%s", name));
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      out << "  " << name << ": no program at '" << path
          << "' (the TSan build's racelab_tsan_conformance builds it)\n";
      continue;
    }
    ProgramExploreOptions explore;
    explore.command = {path};
    explore.strategy = "pct";
    explore.seed = options.seed;
    explore.budget = schedules;
    explore.fork_server = ForkServerUse::kOn;
    std::vector<double> explore_wall, explore_cpu, plain_wall, plain_cpu;
    std::string problem;
    for (int round = 0; round < kRounds; ++round) {
      ProgramExploreResult result;
      const Measured m =
          measure_once([&] { result = explore_program(explore); });
      if (result.found()) problem = "explore reported a finding";
      const int ran = std::max(result.search.schedules, 1);
      explore_wall.push_back(1e3 * m.wall_s / ran);
      explore_cpu.push_back(1e3 * m.cpu_s / ran);
      const Measured plain = measure_once([&] {
        if (!run_plainly(path)) problem = "a plain run failed";
      });
      plain_wall.push_back(1e3 * plain.wall_s);
      plain_cpu.push_back(1e3 * plain.cpu_s);
    }
    out << absl::StrFormat("  %-20s %12.1f %12.1f %12.1f %12.1f %10s\n", name,
                           median(explore_wall), median(explore_cpu),
                           median(plain_wall), median(plain_cpu),
                           fmt(1e3 / median(explore_wall)));
    if (!problem.empty()) out << "    problem: " << problem << "\n";
  }
  out << "\n";
}

}  // namespace racelab::bench_internal
