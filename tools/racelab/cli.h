// The racelab command line: list, run, gate (and the hidden __child used by the
// runner). Exit status: 0 every expectation met, 1 a mismatch, 2 a usage or
// input error, 3 the harness itself failed.
#ifndef RACELAB_CLI_H_
#define RACELAB_CLI_H_

#include <functional>
#include <string>
#include <vector>

#include "racelab/demo.h"
#include "racelab/registry.h"

namespace racelab {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitHarness = 3;

// A command the binary adds beside the built-in ones (the racelab tool adds
// `bench`, which needs the built-in catalog the engine must not know). It gets
// the arguments after its name and returns the exit status.
struct Command {
  std::string name;
  std::string summary;
  std::function<int(int argc, char** argv)> run;
};

// `anti_patterns` are the walk-throughs `racelab demo` offers (none: the
// demo lists nothing); each must name cases of `registry`.
int run_cli(const Registry& registry, int argc, char** argv,
            const std::vector<Command>& commands = {},
            const std::vector<AntiPattern>& anti_patterns = {});

}  // namespace racelab

#endif  // RACELAB_CLI_H_
