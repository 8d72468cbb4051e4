// The sequential model of the checkpoint family, the one specification of
// what a checkpoint manager does: the linearizability oracle checks
// concurrent histories against it, and the conformance tests check every
// variant, called from one thread, against it.
//
// Sessions are independent objects, so the model is a partitioned one
// (racelab/linearizability.h): its state is one session (the payloads in
// commit order; a checkpoint's id is its index) and each operation names its
// session. Linearizability is local: the whole history is linearizable
// exactly when every session's is.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_MODEL_H_
#define RACELAB_SCENARIOS_CHECKPOINT_MODEL_H_

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "checkpoint_ops.h"
#include "racelab/linearizability.h"

namespace racelab::checkpoint {

// Named apart from the spec's SessionModel of checkpoint_spec.h, the model the
// catalog's cases check against: two classes of one name in one namespace would
// be one class to the linker.
struct CheckpointFamilyModel {
  using State = std::vector<std::string>;
  using Input = CheckpointOp;
  using Output = CheckpointResult;
  static constexpr const char* kObjectName = "session";
  static constexpr const char* kPartitionName = "session";

  static const std::string& partition(const Input& in) { return in.session; }
  static std::size_t hash(const State& s);
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next);
  // A whole order on one session, appended to in place: step copies the
  // session for every operation (racelab/linearizability.h).
  static std::size_t fitting_prefix(
      const State& initial,
      std::span<const Operation<CheckpointFamilyModel>> history,
      std::span<const std::size_t> order);
  static std::string describe(const Input& in, const Output& out);
  static std::string describe(const State& s);
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_MODEL_H_
