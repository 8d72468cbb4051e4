// The invariants every state run must keep, over the calls of a finished run:
// an all() never yields a key twice, yields only entries that were really
// set, and yields every entry that stayed in the map for its whole duration.
// state_spec() registers them; the gate's cases and the fuzz_state_* targets
// run them.
#ifndef RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
#define RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_

#include <string>

#include "racelab/spec.h"

namespace racelab::state {

// Each returns what broke in the run, or "".
std::string no_key_twice(const Calls& calls);
std::string only_set_entries(const Calls& calls);
std::string no_stable_key_skipped(const Calls& calls);

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
