// The checkpoint family's binding to the engine, written as a kit user writes
// one (racelab/kit.h): its operations (checkpoint_ops.h), how each runs
// against a store, how operations and results read in traces, and its
// sequential model (checkpoint_model.h), through which the kit checks
// linearizability one session at a time.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_
#define RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint_model.h"
#include "checkpoint_ops.h"
#include "racelab/finding.h"
#include "racelab/history.h"
#include "racelab/kit.h"
#include "racelab/op_context.h"

namespace racelab::checkpoint {

struct CheckpointFamily : LinearizableBy<CheckpointFamilyModel> {
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
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_FAMILY_H_
