// The state family's scenarios, and the invariants every state run must keep:
// an all() never yields a key twice, yields only entries that were really set,
// and yields every entry that stayed in the map for its whole duration.
#ifndef RACELAB_SCENARIOS_STATE_SCENARIOS_H_
#define RACELAB_SCENARIOS_STATE_SCENARIOS_H_

#include <vector>

#include "racelab/scenario.h"
#include "state_family.h"

namespace racelab::state {

const std::vector<Scenario<StateFamily>>& state_scenarios();

// The family-wide invariants, shared by every state scenario.
void check_state_invariants(const Program<StateOp>& program,
                            const History<StateOp, StateResult>& history,
                            StateStore& store, std::vector<Finding>& findings);

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_SCENARIOS_H_
