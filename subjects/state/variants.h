// Factories of the state subjects, one per variant file.
#ifndef RACELAB_SUBJECTS_STATE_VARIANTS_H_
#define RACELAB_SUBJECTS_STATE_VARIANTS_H_

#include <memory>

#include "state/state_store.h"

namespace racelab::state {

std::unique_ptr<StateStore> make_unlock_during_iteration();  // buggy
std::unique_ptr<StateStore> make_snapshot();                 // fixed
std::unique_ptr<StateStore> make_hold_lock();                // fixed*
std::unique_ptr<StateStore> make_copy_on_write();            // fixed

}  // namespace racelab::state

#endif  // RACELAB_SUBJECTS_STATE_VARIANTS_H_
