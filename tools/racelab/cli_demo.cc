// racelab demo: the walk-through of one anti-pattern of the catalog.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

// racelab demo
Subcommand add_demo_command(CLI::App& app, const Registry& registry,
                            const std::vector<AntiPattern>& anti_patterns) {
  auto names = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "walk through an anti-pattern: code, failing interleaving, oracles, fix");
  cmd->add_option("name", *names, "anti-pattern (none: list them)");
  return {cmd, [&registry, &anti_patterns, names] {
            return run_demo(registry, anti_patterns, *names, std::cout);
          }};
}

}  // namespace racelab::cli_internal
