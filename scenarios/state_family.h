// The state family's binding to the engine: its operations as data, how each
// runs against a store, and how operations and results read in traces.
#ifndef RACELAB_SCENARIOS_STATE_FAMILY_H_
#define RACELAB_SCENARIOS_STATE_FAMILY_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "racelab/finding.h"
#include "racelab/history.h"
#include "racelab/op_context.h"
#include "state/state_store.h"

namespace racelab::state {

struct StateOp {
  enum class Kind { kSet, kGet, kErase, kAll };
  Kind kind = Kind::kSet;
  std::string key;    // set, get, erase
  std::string value;  // set
  // all(): pause at each entry (a slow reader); stop after this many entries
  // (0: never); from the callback, set key+"'" to the value for every yielded
  // key that has no "'" yet (a callback that writes to the state).
  bool pause_each = false;
  int stop_after = 0;
  bool write_back = false;

  static StateOp set(std::string key, std::string value) {
    return {Kind::kSet, std::move(key), std::move(value)};
  }
  static StateOp get(std::string key) {
    return {Kind::kGet, std::move(key), {}};
  }
  static StateOp erase(std::string key) {
    return {Kind::kErase, std::move(key), {}};
  }
  static StateOp all(bool pause_each = false, int stop_after = 0,
                     bool write_back = false) {
    return {Kind::kAll, {}, {}, pause_each, stop_after, write_back};
  }
};

struct StateResult {
  std::optional<std::string> value;                          // get
  bool erased = false;                                       // erase
  std::vector<std::pair<std::string, std::string>> entries;  // all, in order
};

struct StateFamily {
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
  // The linearizability oracle (state_linearizability.cc).
  static void check_linearizability(const History<Op, Result>& history,
                                    std::vector<Finding>& findings);
};

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_FAMILY_H_
