// What an operation may ask of the engine while it runs: a pause (a scheduling
// point in controlled mode, a short sleep in stress mode), the clock used to
// stamp nested operations, and a value carried between a thread's operations.
#ifndef RACELAB_OP_CONTEXT_H_
#define RACELAB_OP_CONTEXT_H_

#include <cstdint>

namespace racelab {

// Which end of an operation a history tick stamps.
enum class Tick { kCall, kReturn };

class OpContext {
 public:
  virtual ~OpContext() = default;
  // The logical thread running the operation.
  virtual int thread() const = 0;
  // A deliberate pause inside an operation (a slow reader).
  virtual void pause() = 0;
  // The history clock, for stamping operations nested in a callback: the time
  // of `tick`, the call or the return of an operation.
  virtual std::uint64_t now(Tick tick) = 0;
  // Where the operation that just returned took effect, as far as the runner
  // knows (Event::effect_order); 0 when it does not.
  virtual std::uint64_t effect_order() { return 0; }

  // A value an operation leaves for the next operation of the same thread
  // (the checkpoint family: the id of the last commit, for a later lookup).
  std::uint64_t carried_id = 0;
};

}  // namespace racelab

#endif  // RACELAB_OP_CONTEXT_H_
