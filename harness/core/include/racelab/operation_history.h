// Turns a run's history into the linearizability checker's input: setup
// operations fold into the initial state, operations nested in a callback get
// a thread of their own (they overlap the operation that issued them), and
// times are made strictly increasing per thread as the checker requires.
#ifndef RACELAB_OPERATION_HISTORY_H_
#define RACELAB_OPERATION_HISTORY_H_

#include <map>
#include <vector>

#include "racelab/history.h"
#include "racelab/linearizability.h"

namespace racelab {

// Thread number given to operations nested in thread t's callbacks.
inline int nested_thread(int thread) { return 1000 + thread; }

// `apply_setup(op, result)` is called for each setup operation, in order.
template <class M, class Op, class Result, class ApplySetup>
std::vector<Operation<M>> to_operations(const History<Op, Result>& history,
                                        ApplySetup apply_setup) {
  std::vector<Operation<M>> ops;
  std::map<int, std::uint64_t> last_ret;  // per thread, to keep ret < next call
  for (const auto& e : history) {
    if (e.thread == kSetupThread) {
      apply_setup(e.op, e.result);
      continue;
    }
    const int thread = e.nested ? nested_thread(e.thread) : e.thread;
    std::uint64_t call = e.call, ret = e.ret;
    auto last = last_ret.find(thread);
    if (last != last_ret.end() && call <= last->second) call = last->second + 1;
    if (ret <= call) ret = call + 1;
    last_ret[thread] = ret;
    ops.push_back({thread, call, ret, e.op, e.result, e.effect_order});
  }
  return ops;
}

}  // namespace racelab

#endif  // RACELAB_OPERATION_HISTORY_H_
