// The checkpoint family's binding to the engine: its operations as data, how
// each runs against a store, and how operations and results read in traces.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_
#define RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/checkpoint_store.h"
#include "racelab/finding.h"
#include "racelab/history.h"
#include "racelab/op_context.h"

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

struct CheckpointFamily {
  using Store = CheckpointStore;
  using Op = CheckpointOp;
  using Result = CheckpointResult;
  static constexpr const char* kName = "checkpoint";

  static Result execute(Store& store, const Op& op, OpContext& ctx,
                        History<Op, Result>* nested);
  static std::string describe(const Op& op);  // also the schedule-file form
  // The inverse of describe(op); nullopt for text that is no operation.
  static std::optional<Op> parse(std::string_view text);
  static std::string describe(const Op& op, const Result& result);
  // The linearizability oracle (checkpoint_linearizability.cc).
  static void check_linearizability(const History<Op, Result>& history,
                                    std::vector<Finding>& findings);
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_
