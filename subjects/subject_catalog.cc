// The subject catalog's entries.
#include "subject_catalog.h"

#include "checkpoint/variants.h"
#include "state/variants.h"

namespace racelab {

const std::vector<SubjectEntry<checkpoint::CheckpointStore>>&
checkpoint_subjects() {
  static const auto* entries = new std::vector<
      SubjectEntry<checkpoint::CheckpointStore>>{
      {"unsynchronized", "subjects/checkpoint/unsynchronized.cc", true,
       "no lock at all: concurrent map writes (the seed bug)",
       checkpoint::make_unsynchronized},
      {"mutex", "subjects/checkpoint/mutex.cc", false,
       "one mutex around every method (the seed's fix)",
       checkpoint::make_mutex},
      {"escaping_index", "subjects/checkpoint/escaping_index.cc", true,
       "locked, but retrieve_index returns a view read after the lock is gone",
       checkpoint::make_escaping_index},
      {"split_lock", "subjects/checkpoint/split_lock.cc", true,
       "check-then-act: creates a missing session outside the lock, loses "
       "commits",
       checkpoint::make_split_lock},
      {"sharded", "subjects/checkpoint/sharded.cc", false,
       "sharded session map with a lock per session", checkpoint::make_sharded},
  };
  return *entries;
}

const std::vector<SubjectEntry<state::StateStore>>& state_subjects() {
  static const auto* entries = new std::vector<SubjectEntry<state::StateStore>>{
      {"unlock_during_iteration", "subjects/state/unlock_during_iteration.cc",
       true, "holds an iterator across unlock/yield/relock (the seed bug)",
       state::make_unlock_during_iteration},
      {"snapshot", "subjects/state/snapshot.cc", false,
       "copies under the read lock, iterates the copy (the seed's fix)",
       state::make_snapshot},
      {"hold_lock", "subjects/state/hold_lock.cc", false,
       "holds the read lock for the whole iteration; a writing callback "
       "deadlocks",
       state::make_hold_lock},
      {"copy_on_write", "subjects/state/copy_on_write.cc", false,
       "immutable snapshots swapped by writers; readers never block",
       state::make_copy_on_write},
  };
  return *entries;
}

}  // namespace racelab
