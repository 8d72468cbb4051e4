// Registers racelab's built-in catalog (subjects, scenarios, the cases they
// make and the expectation table) with an engine registry.
#ifndef RACELAB_SCENARIOS_CATALOG_H_
#define RACELAB_SCENARIOS_CATALOG_H_

#include "racelab/registry.h"

namespace racelab {

void register_builtin_catalog(Registry& registry);

}  // namespace racelab

#endif  // RACELAB_SCENARIOS_CATALOG_H_
