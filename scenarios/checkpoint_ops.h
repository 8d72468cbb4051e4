// The checkpoint family's operations and results as data: what a program asks a
// store to do, and what the store returned.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_OPS_H_
#define RACELAB_SCENARIOS_CHECKPOINT_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_store.h"

namespace racelab::checkpoint {

struct CheckpointOp {
  enum class Kind { kCommit, kLookup, kRetrieveIndex };
  Kind kind = Kind::kCommit;
  std::string session;
  std::string payload;  // commit
  // lookup: the id to look up; kLastCommit means the id this thread's previous
  // commit returned.
  std::int64_t id = 0;
  // retrieve_index: pause between reading the elements of the returned view.
  bool pause_each = false;

  static constexpr std::int64_t kLastCommit = -1;
  static CheckpointOp commit(std::string session, std::string payload) {
    return {Kind::kCommit, std::move(session), std::move(payload), 0, false};
  }
  static CheckpointOp lookup(std::string session, std::int64_t id) {
    return {Kind::kLookup, std::move(session), {}, id, false};
  }
  static CheckpointOp retrieve_index(std::string session,
                                     bool pause_each = false) {
    return {Kind::kRetrieveIndex, std::move(session), {}, 0, pause_each};
  }
};

struct CheckpointResult {
  CheckpointId id = 0;                 // commit; lookup: the id looked up
  std::optional<std::string> payload;  // lookup
  std::vector<CheckpointId> index;     // retrieve_index, as read by the caller
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_OPS_H_
