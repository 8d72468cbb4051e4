// Factories of the checkpoint subjects, one per variant file.
#ifndef RACELAB_SUBJECTS_CHECKPOINT_VARIANTS_H_
#define RACELAB_SUBJECTS_CHECKPOINT_VARIANTS_H_

#include <memory>

#include "checkpoint/checkpoint_store.h"

namespace racelab::checkpoint {

std::unique_ptr<CheckpointStore> make_unsynchronized();    // buggy
std::unique_ptr<CheckpointStore> make_mutex();             // fixed
std::unique_ptr<CheckpointStore> make_escaping_index();    // buggy
std::unique_ptr<CheckpointStore> make_split_lock();        // buggy
std::unique_ptr<CheckpointStore> make_sharded();           // fixed
std::unique_ptr<CheckpointStore> make_stale_cas();         // buggy
std::unique_ptr<CheckpointStore> make_lock_free();         // fixed
std::unique_ptr<CheckpointStore> make_seqlock_unfenced();  // buggy
std::unique_ptr<CheckpointStore> make_seqlock();           // fixed

}  // namespace racelab::checkpoint

#endif  // RACELAB_SUBJECTS_CHECKPOINT_VARIANTS_H_
