// What the subcommands of the racelab command line share (cli.cc: run_cli,
// the dispatch and the shared option parsing; cli_<command>.cc: one file per
// subcommand, its flags and its handler). Private to tools/racelab.
#ifndef RACELAB_CLI_COMMANDS_H_
#define RACELAB_CLI_COMMANDS_H_

#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "racelab/atomic_file.h"
#include "racelab/child_request.h"
#include "racelab/cli.h"
#include "racelab/demo.h"
#include "racelab/error_line.h"
#include "racelab/gate.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/interrupt.h"
#include "racelab/json.h"
#include "racelab/merge.h"
#include "racelab/oracle.h"
#include "racelab/output_folder.h"
#include "racelab/program_explorer.h"
#include "racelab/program_schedule.h"
#include "racelab/report.h"
#include "racelab/result_channel.h"
#include "racelab/runner.h"
#include "racelab/saved_schedule.h"
#include "racelab/schedule_source.h"
#include "racelab/truth_table.h"

namespace racelab::cli_internal {

// A user error: one line on stderr, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One subcommand: its flags, registered on its own CLI::App, and its handler,
// which runs once they are parsed and returns the exit status. A handler
// throws UsageError, InputError, OutputError or sched::ScheduleFileError for
// run_cli to report as one line.
struct Subcommand {
  CLI::App* cmd = nullptr;
  std::function<int()> run;
};

// Whole numbers on the command line, read as text and converted here:
// CLI11's own conversion saturates (--seed 99999999999999999999 ran as the
// largest seed), wraps -1 and takes hexadecimal. Only plain decimal digits in
// [low, high] are accepted; anything else is a one-line usage error.
std::optional<std::uint64_t> parse_whole_number(const std::string& text);

template <class T>
CLI::Option* add_number_option(CLI::App* cmd, const std::string& names,
                               T& value, T low, T high,
                               const std::string& help) {
  static_assert(std::is_integral_v<T>);
  const std::string flag = names.substr(0, names.find(','));
  return cmd
      ->add_option_function<std::string>(
          names,
          [&value, flag, low, high](const std::string& text) {
            std::optional<std::uint64_t> v = parse_whole_number(text);
            if (!v || *v < static_cast<std::uint64_t>(low) ||
                *v > static_cast<std::uint64_t>(high)) {
              throw CLI::ValidationError(
                  flag, absl::StrCat("'", text, "' is not a whole number from ",
                                     low, " to ", high));
            }
            value = static_cast<T>(*v);
          },
          help.empty() ? help
                       : absl::StrCat(help, " (", low, " to ", high, ")"))
      ->type_name("N");
}

Mode parse_mode(const std::string& name);

// --shard K/N (gate, explore --tests): 1 <= K <= N <= 10000; throws
// CLI::ValidationError otherwise.
struct Shard {
  int index = 1;  // K
  int count = 1;  // N
};
Shard parse_shard(const std::string& text);

// `subject_where` and `scenario_where` say where the names came from in
// messages: the flags, or a schedule file's lines.
void check_case(const Registry& registry, const std::string& subject,
                const std::string& scenario,
                const std::string& subject_where = "--subject",
                const std::string& scenario_where = "--scenario");

// A flag that does not apply to the mode or strategy that runs is an error,
// never silently ignored. `stress` and `controlled`: which modes run (both in
// `gate --mode all`, where each flag applies to its own half).
void check_flags_apply(const CLI::App& cmd, bool stress, bool controlled,
                       const std::string& strategy);

void print_case(const CaseResult& c, std::ostream& out);
const char* signal_name(int sig);

void add_oracles_option(CLI::App* cmd, OracleSet& oracles);
// The flags every command that runs cases shares.
void add_run_options(CLI::App* cmd, RunOptions& run);
void add_controlled_options(CLI::App* cmd, RunOptions& run);

// Explores or replays a whole program: SIGINT and SIGTERM stop the program
// and the search (the schedules so far are reported, exit 128 + signal), a
// closed stdout costs only the text, never the status.
int explore_and_print(const ProgramExploreOptions& options,
                      const std::string* out_dir = nullptr);

// The subcommands, each in its own file.
Subcommand add_list_command(CLI::App& app, const Registry& registry);
Subcommand add_run_command(CLI::App& app, const Registry& registry);
Subcommand add_replay_command(CLI::App& app, const Registry& registry);
// `after_dashes`: the program's command as given after "--", byte for byte
// (filled before the command runs; empty: CLI11's reading of it).
Subcommand add_explore_command(CLI::App& app,
                               const std::vector<std::string>* after_dashes);
Subcommand add_gate_command(CLI::App& app, const Registry& registry);
Subcommand add_merge_command(CLI::App& app);
Subcommand add_demo_command(CLI::App& app, const Registry& registry,
                            const std::vector<AntiPattern>& anti_patterns);
Subcommand add_child_command(CLI::App& app, const Registry& registry);

}  // namespace racelab::cli_internal

#endif  // RACELAB_CLI_COMMANDS_H_
