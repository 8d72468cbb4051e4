// The subject catalog: every store implementation racelab ships, by family,
// with a one-line description, whether it is a deliberately buggy variant, and
// the verdict each scenario of its family must produce. Plain data; the store
// files themselves know nothing of the harness.
#ifndef RACELAB_SUBJECTS_SUBJECT_CATALOG_H_
#define RACELAB_SUBJECTS_SUBJECT_CATALOG_H_

#include <memory>
#include <span>
#include <vector>

#include "checkpoint/checkpoint_store.h"
#include "racelab/expectation.h"
#include "state/state_store.h"

namespace racelab {

template <class Store>
struct SubjectEntry {
  const char* variant;      // "unsynchronized"
  const char* source;       // repo-relative file of the variant
  bool buggy;               // deliberately broken
  const char* description;  // the anti-pattern or the fix, one line
  std::unique_ptr<Store> (*make)();
  // One row per scenario of the family (and mode set).
  std::span<const ExpectationRow> expectations;
  // Its bug or its fix is a memory order: controlled mode explores it with
  // the memory-model mode (RunRequest::memory_model), whatever was asked.
  bool memory_model = false;
};

const std::vector<SubjectEntry<checkpoint::CheckpointStore>>&
checkpoint_subjects();
const std::vector<SubjectEntry<state::StateStore>>& state_subjects();

}  // namespace racelab

#endif  // RACELAB_SUBJECTS_SUBJECT_CATALOG_H_
