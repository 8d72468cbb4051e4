// The state family's operations and results as data: what a program asks a
// store to do, and what the store returned.
#ifndef RACELAB_SCENARIOS_STATE_OPS_H_
#define RACELAB_SCENARIOS_STATE_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_OPS_H_
