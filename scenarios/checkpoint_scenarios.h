// The checkpoint family's scenarios, and the invariants every checkpoint run
// must keep: no committed checkpoint is lost, ids are never handed out twice,
// and every index read is a state the session really had.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_SCENARIOS_H_
#define RACELAB_SCENARIOS_CHECKPOINT_SCENARIOS_H_

#include <vector>

#include "checkpoint_family.h"
#include "racelab/scenario.h"

namespace racelab::checkpoint {

const std::vector<Scenario<CheckpointFamily>>& checkpoint_scenarios();

// The family-wide invariants, shared by every checkpoint scenario.
void check_checkpoint_invariants(
    const Program<CheckpointOp>& program,
    const History<CheckpointOp, CheckpointResult>& history,
    CheckpointStore& store, std::vector<Finding>& findings);

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_SCENARIOS_H_
