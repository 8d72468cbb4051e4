// racelab __child (hidden): one run of a case in a child process, as the
// request the runner sends on kChildRequestFd asks.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

// The replay side of a run: the recorded program (setup, threads, finale)
// and decisions.
void load_replay(const sched::ScheduleFile& file, RunRequest& request) {
  request.replay_program = file.program_lines();
  request.replay_decisions = file.decisions;
  request.strategy = "replay";
}

// racelab __child: one run of a case, as the request on kChildRequestFd asks.
int handle_child(const Registry& registry) {
  constexpr int kResultFd = 3;
  ChildRequest request;
  try {
    request = read_child_request(kChildRequestFd);
    if (!request.replay_schedule.empty()) {
      const std::string name = "the replayed schedule";
      load_replay(sched::parse_schedule(request.replay_schedule, name),
                  request.run);
    }
  } catch (const std::exception& e) {
    // The parent wrote and checked this request; tell it on the result
    // channel, where an error is an input error and never a finding.
    const std::string line = event_line("error", e.what()) + "\n";
    print_error(std::cerr, e.what());
    if (::write(kResultFd, line.data(), line.size()) < 0) {
      // No result channel: the line on stderr is all there is.
    }
    return kExitUsage;
  }
  return child_main(registry, request);
}

}  // namespace

Subcommand add_child_command(CLI::App& app, const Registry& registry) {
  CLI::App* cmd = app.add_subcommand("__child", "(internal) one run of a case");
  cmd->group("");
  return {cmd, [&registry] { return handle_child(registry); }};
}

}  // namespace racelab::cli_internal
