// The invariants every state run must keep, over the calls of a finished run
// (state_spec.h registers them): an all() never yields a key twice, yields
// only entries that were really set, and yields every entry that stayed in
// the map for its whole duration. Each returns what broke, or "" when it
// held.
#ifndef RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
#define RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_

#include <set>
#include <string>

#include "racelab/spec.h"
#include "state_spec.h"

namespace racelab::state {

std::string no_key_twice(StateStore& store, const Calls& calls);
std::string only_set_entries(StateStore& store, const Calls& calls);
std::string no_stable_key_skipped(StateStore& store, const Calls& calls);

// The keys as a finding shows them: sorted, comma-separated, the first eight
// and then how many there are in all. The family's invariants use it too.
std::string key_list(const std::set<std::string>& keys);

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
