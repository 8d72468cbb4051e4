// The gomap oracle: turns the faults racelab::GoMap recorded during a run into
// findings that read like Go's runtime errors.
#ifndef RACELAB_GO_MAP_ORACLE_H_
#define RACELAB_GO_MAP_ORACLE_H_

#include <vector>

#include "racelab/finding.h"

namespace racelab {

// Drains the recorded faults (always, so none leaks into the next run) and,
// when `enabled`, appends one finding per distinct fault and map.
void collect_go_map_findings(bool enabled, std::vector<Finding>& findings);

}  // namespace racelab

#endif  // RACELAB_GO_MAP_ORACLE_H_
