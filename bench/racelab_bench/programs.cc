// `racelab bench`, section "programs": what a whole program's schedule costs
// under `racelab explore`, side by side in one run: a fresh process per
// schedule, copies of one process stopped before main (the fork server),
// the same search split over two workers (--jobs 2), the bare start of the same
// program with no racelab, and the in-process rate of the catalog's 2 x 8 state
// program on OS threads (the substrate a whole program runs on). Median of
// alternating rounds.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_internal.h"
#include "racelab/program_explorer.h"

extern char** environ;

namespace racelab::bench_internal {
namespace {

namespace fs = std::filesystem;

// Starts the program plainly (no channel: main runs as it would without
// racelab), output to /dev/null, and waits for it; false if it failed.
bool start_plainly(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& arg : command) {
    argv.push_back(const_cast<char*>(arg.c_str()));
  }
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::string built_beside(const std::string& self_exe,
                         const std::string& relative) {
  std::error_code ec;
  const fs::path exe = fs::canonical(self_exe, ec);
  if (ec) return "";
  return (exe.parent_path() / relative).string();
}

void programs_section(const BenchOptions& options, std::ostream& out) {
  const std::string path = options.program.empty()
                               ? built_beside(options.self_exe,
                                              "tests/native/"
                                              "racelab_native_program")
                               : options.program;
  const std::vector<std::string> command = {path, "lost_update", "fixed"};
  const int schedules = options.quick ? 10 : 100;
  out << "== programs: schedules per second of a whole program, "
      << path.substr(path.find_last_of('/') + 1)
      << " lost_update fixed (2 threads), random, " << schedules
      << " schedules a search, median of " << kRounds
      << " alternating rounds ==\n"
      << "fresh: a new process per schedule; fork server: copies of one "
         "process stopped before main; --jobs 2: the same search, two "
         "schedules at once (a fork server each), on "
      << std::thread::hardware_concurrency()
      << " cores; plain start: the program run "
         "without racelab (process start and main); in process: the "
         "catalog's 2 x 8 state program, OS threads\n";
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) {
    out << "  no program at '" << path << "' (--program names one)\n\n";
    return;
  }
  ProgramExploreOptions explore;
  explore.command = command;
  explore.strategy = "random";
  explore.seed = options.seed;
  explore.budget = schedules;
  std::vector<double> fresh, forked, two_jobs, plain, in_process;
  int problems = 0;
  std::string failure;
  auto rate = [&](ForkServerUse use, int jobs) {
    explore.fork_server = use;
    explore.jobs = jobs;
    ProgramExploreResult result;
    const Measured m = measure_once([&] { result = explore_program(explore); });
    if (result.found()) ++problems;
    if (use == ForkServerUse::kOn &&
        result.forked_schedules != result.search.schedules) {
      failure = "the fork server did not run every schedule";
    }
    return result.search.schedules / m.wall_s;
  };
  for (int round = 0; round < kRounds; ++round) {
    fresh.push_back(rate(ForkServerUse::kOff, 1));
    forked.push_back(rate(ForkServerUse::kOn, 1));
    two_jobs.push_back(rate(ForkServerUse::kOn, 2));
    const Measured m = measure_once([&] {
      for (int i = 0; i < schedules; ++i) {
        if (!start_plainly(command)) failure = "a plain start failed";
      }
    });
    plain.push_back(schedules / m.wall_s);
    in_process.push_back(
        controlled_rate(2, 8, OracleSet::selectable(), options.measure_ms,
                        options.seed, &problems, sched::Substrate::kOsThreads)
            .per_wall_second);
  }
  auto row = [&](const char* name, const std::vector<double>& rates) {
    out << absl::StrFormat("  %-14s %10s per second  %8.2f ms each\n", name,
                           fmt(median(rates)), 1e3 / median(rates));
  };
  row("fresh", fresh);
  row("fork server", forked);
  row("--jobs 2", two_jobs);
  row("plain start", plain);
  row("in process", in_process);
  out << absl::StrFormat(
      "  fork server / fresh = %.1f; --jobs 2 / fork server = %.2f; in "
      "process / fork server = %.1f\n",
      median(forked) / median(fresh), median(two_jobs) / median(forked),
      median(in_process) / median(forked));
  if (problems > 0) out << "  " << problems << " runs reported a finding\n";
  if (!failure.empty()) out << "  problem: " << failure << "\n";
  out << "\n";
}

}  // namespace racelab::bench_internal
