// The linearizability oracle for the checkpoint family: the sequential model
// of one session in the checker's terms, and a check that splits a history by
// session (sessions are independent objects, and linearizability is local:
// the whole is linearizable exactly when every session is).
#ifndef RACELAB_SCENARIOS_CHECKPOINT_LINEARIZABILITY_H_
#define RACELAB_SCENARIOS_CHECKPOINT_LINEARIZABILITY_H_

#include <string>
#include <vector>

#include "checkpoint_family.h"
#include "racelab/finding.h"
#include "racelab/history.h"

namespace racelab::checkpoint {

// One session: the payloads in commit order (a checkpoint's id is its index).
struct SessionModel {
  using State = std::vector<std::string>;
  using Input = CheckpointOp;
  using Output = CheckpointResult;
  static constexpr const char* kObjectName = "session";

  static std::size_t hash(const State& s);
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next);
  static std::string describe(const Input& in, const Output& out);
  static std::string describe(const State& s);
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_LINEARIZABILITY_H_
