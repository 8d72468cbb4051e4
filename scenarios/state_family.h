// The state family's binding to the engine, written as a kit user writes one
// (racelab/kit.h): its operations (state_ops.h), how each runs against a
// store, how operations and results read in traces, and its sequential model
// (state_model.h), through which the kit checks linearizability.
#ifndef RACELAB_SCENARIOS_STATE_FAMILY_H_
#define RACELAB_SCENARIOS_STATE_FAMILY_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "racelab/finding.h"
#include "racelab/history.h"
#include "racelab/kit.h"
#include "racelab/op_context.h"
#include "state_model.h"
#include "state_ops.h"

namespace racelab::state {

struct StateFamily : LinearizableBy<StateFamilyModel> {
  using Store = StateStore;
  using Op = StateOp;
  using Result = StateResult;
  static constexpr const char* kName = "state";

  static Result execute(Store& store, const Op& op, OpContext& ctx,
                        History<Op, Result>* nested);
  static std::string describe(const Op& op);  // also the schedule-file form
  // The inverse of describe(op); nullopt for text that is no operation.
  static std::optional<Op> parse(std::string_view text);
  static std::string describe(const Op& op, const Result& result);
};

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_FAMILY_H_
