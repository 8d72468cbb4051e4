// The history of a run: every operation's call and return, with its result.
//
// The scenarios' invariants and the linearizability oracle read it. Times are
// nanoseconds of a monotonic clock in stress mode and step numbers in
// controlled mode; either way, a.ret < b.call means a finished before b began.
#ifndef RACELAB_HISTORY_H_
#define RACELAB_HISTORY_H_

#include <cstdint>
#include <vector>

namespace racelab {

// Thread number of the setup operations that run before the threads start.
inline constexpr int kSetupThread = -1;

template <class Op, class Result>
struct Event {
  int thread = 0;       // logical thread, or kSetupThread
  bool nested = false;  // issued from inside another operation's callback
  Op op;
  Result result;
  std::uint64_t call = 0;
  std::uint64_t ret = 0;
  // Controlled mode: the scheduler step in which the operation last touched
  // a lock or an atomic (sched::ControlledScheduler::last_store_step); 0 when
  // unknown. Only a hint for the order the linearizability check tries first.
  std::uint64_t effect_order = 0;
};

template <class Op, class Result>
using History = std::vector<Event<Op, Result>>;

}  // namespace racelab

#endif  // RACELAB_HISTORY_H_
