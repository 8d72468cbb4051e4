// The sequential model of the state family, the one specification of what
// the state map does: the linearizability oracle checks concurrent histories
// against it, and the conformance tests check every variant, called from one
// thread, against it. all() is linearizable when what it yielded equals the
// map's whole contents at one point inside its interval (or, when it stopped
// early, is a subset of one such state of the right size).
#ifndef RACELAB_SCENARIOS_STATE_MODEL_H_
#define RACELAB_SCENARIOS_STATE_MODEL_H_

#include <cstddef>
#include <string>

#include "racelab/persistent_map.h"
#include "state_ops.h"

namespace racelab::state {

// Named apart from the spec's MapModel of state_spec.h, the model the catalog's
// cases check against: two classes of one name in one namespace would be one
// class to the linker.
struct StateFamilyModel {
  // Persistent: the search keeps a state per configuration, and a set
  // copies only the path to its key.
  using State = PersistentMap<std::string, std::string>;
  using Input = StateOp;
  using Output = StateResult;
  static constexpr const char* kObjectName = "map";

  static std::size_t hash(const State& s);
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next);
  static std::string describe(const Input& in, const Output& out);
  // The call alone: a finding's summary names it (an iteration's result is
  // long; the explanation shows it).
  static std::string describe(const Input& in);
  static std::string describe(const State& s);
};

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_MODEL_H_
