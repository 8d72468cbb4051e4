// The linearizability oracle for the state family: the map's sequential model
// in the checker's terms. all() is linearizable when what it yielded equals
// the map's whole contents at one point inside its interval (or, when it
// stopped early, is a subset of one such state of the right size).
#ifndef RACELAB_SCENARIOS_STATE_LINEARIZABILITY_H_
#define RACELAB_SCENARIOS_STATE_LINEARIZABILITY_H_

#include <map>
#include <string>
#include <vector>

#include "racelab/finding.h"
#include "racelab/history.h"
#include "state_family.h"

namespace racelab::state {

struct MapModel {
  using State = std::map<std::string, std::string>;
  using Input = StateOp;
  using Output = StateResult;
  static constexpr const char* kObjectName = "map";

  static std::size_t hash(const State& s);
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next);
  static std::string describe(const Input& in, const Output& out);
  static std::string describe(const State& s);
};

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_LINEARIZABILITY_H_
