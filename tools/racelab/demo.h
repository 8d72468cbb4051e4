// The teaching demo: `racelab demo` lists the anti-patterns of the reference
// catalog; `racelab demo <name>` walks one of them: the buggy code, the
// minimal failing interleaving, what each oracle said and why, the fix as a
// diff, and the fixed store on the same program and schedule.
#ifndef RACELAB_DEMO_H_
#define RACELAB_DEMO_H_

#include <ostream>
#include <string>
#include <vector>

#include "racelab/registry.h"

namespace racelab {

// One walk-through of `racelab demo`: an anti-pattern of a catalog, the
// buggy and the fixed subject that show it, the scenario that breaks it, and
// the texts that explain it. The racelab binary makes them from the
// catalog's texts (subjects/anti_patterns.h).
struct AntiPattern {
  std::string name;   // "check-then-act"
  std::string buggy;  // subject
  std::string fixed;  // subject
  std::string scenario;
  std::string marker;   // the excerpt centres on the first line with this
  std::string summary;  // one line, for the list
  std::string story;    // what goes wrong
  std::string oracles;  // which oracle sees it, and why the others do not
};

// One line per anti-pattern whose buggy or fixed subject x scenario is no
// case of `registry`.
std::vector<std::string> check_anti_patterns(
    const Registry& registry, const std::vector<AntiPattern>& anti_patterns);

// `args` are the words after `demo`. Runs cases through run_case (child
// processes of /proc/self/exe), so it must be called from the racelab binary.
// Returns 0, or 2 for an unknown anti-pattern (one line on stderr).
int run_demo(const Registry& registry,
             const std::vector<AntiPattern>& anti_patterns,
             const std::vector<std::string>& args, std::ostream& out);

}  // namespace racelab

#endif  // RACELAB_DEMO_H_
