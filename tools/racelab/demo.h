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

// `args` are the words after `demo`. Runs cases through run_case (child
// processes of /proc/self/exe), so it must be called from the racelab binary.
// Returns 0, or 2 for an unknown anti-pattern (one line on stderr).
int run_demo(const Registry& registry, const std::vector<std::string>& args,
             std::ostream& out);

}  // namespace racelab

#endif  // RACELAB_DEMO_H_
