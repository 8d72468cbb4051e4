// `racelab replay FILE --debug`: the program under gdb on the recorded
// schedule; see program_explorer.h and program_channel.h (ReplayHeader).
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "racelab/internal/input_error.h"
#include "racelab/program_channel.h"
#include "racelab/program_explorer.h"
#include "runtime_mark.h"

namespace racelab {

void debug_program(ProgramExploreOptions options) {
  if (options.command.empty()) throw InputError("no program to debug");
  const std::string where = "replay --debug";
  options.command.front() = resolve_program(where, options.command.front());
  // Checked here, as explore checks it: a program without the runtime would
  // run free under gdb, on no schedule.
  open_runtime_program(where, options.command.front());
  std::string gdb;
  try {
    gdb = resolve_program(where, "gdb");
  } catch (const InputError&) {
    throw InputError(
        absl::StrCat(where, ": gdb is not installed (not in PATH)"));
  }
  // The schedule, in a memory file the program inherits (through gdb).
  const int fd = memfd_create("racelab-replay", 0);
  if (fd < 0) {
    throw InputError(
        absl::StrCat(where, ": memfd_create: ", std::strerror(errno)));
  }
  program_channel::ReplayHeader header{};
  header.magic = program_channel::ReplayHeader::kMagic;
  header.max_steps = options.max_steps;
  header.spin_bound = options.spin_bound;
  header.memory_model = options.memory_model ? 1 : 0;
  header.count = static_cast<std::int32_t>(options.replay_decisions.size());
  const auto bytes = static_cast<ssize_t>(options.replay_decisions.size() *
                                          sizeof(std::int32_t));
  std::vector<std::int32_t> decisions(options.replay_decisions.begin(),
                                      options.replay_decisions.end());
  if (write(fd, &header, sizeof header) !=
          static_cast<ssize_t>(sizeof header) ||
      write(fd, decisions.data(), static_cast<std::size_t>(bytes)) != bytes) {
    throw InputError(absl::StrCat(
        where, ": cannot write the schedule: ", std::strerror(errno)));
  }
  setenv(program_channel::kReplayVariable, std::to_string(fd).c_str(), 1);
  unsetenv(program_channel::kEnvironmentVariable);
  // The first failure stops it: a sanitizer's report, in the thread whose
  // access it reports, or else the schedule's last decision.
  std::vector<std::string> args = {"gdb",   "-q",
                                   "-ex",   "set breakpoint pending on",
                                   "-ex",   "break __tsan_on_report",
                                   "-ex",   "break __asan_on_error",
                                   "-ex",   "break racelab_failing_step",
                                   "-ex",   "run",
                                   "--args"};
  args.insert(args.end(), options.command.begin(), options.command.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execv(gdb.c_str(), argv.data());
  throw InputError(
      absl::StrCat(where, ": cannot start ", gdb, ": ", std::strerror(errno)));
}

}  // namespace racelab
