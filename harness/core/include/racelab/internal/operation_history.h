// Turns a run's history into the linearizability checker's input: setup
// operations fold into the initial state, operations nested in a callback get
// a thread of their own (they overlap the operation that issued them), and
// times are made strictly increasing per thread as the checker requires.
#ifndef RACELAB_OPERATION_HISTORY_H_
#define RACELAB_OPERATION_HISTORY_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "racelab/internal/history.h"
#include "racelab/internal/linearizability.h"

namespace racelab {

// Thread number given to operations nested in thread t's callbacks.
inline int nested_thread(int thread) { return 1000 + thread; }

// The event an element of a history or of a history's part names: a part
// (check_history_with_model of a PartitionedModel) lists its events by
// address, so that they are not copied once more.
template <class Op, class Result>
const Event<Op, Result>& event_of(const Event<Op, Result>& e) {
  return e;
}
template <class Op, class Result>
const Event<Op, Result>& event_of(const Event<Op, Result>* e) {
  return *e;
}

// `events` is a history, or a part of one as event addresses;
// `apply_setup(op, result)` is called for each setup operation, in order.
template <class M, class Events, class ApplySetup>
std::vector<Operation<M>> to_operations(const Events& events,
                                        ApplySetup apply_setup) {
  std::vector<Operation<M>> ops;
  ops.reserve(events.size());
  // Per thread, the last return time, to keep ret < the next call (0: none
  // yet; a return time is at least 1). A run has a handful of threads, so a
  // list searched in order beats a map.
  std::vector<std::pair<int, std::uint64_t>> last_ret;
  for (const auto& item : events) {
    const auto& e = event_of(item);
    if (e.thread == kSetupThread) {
      apply_setup(e.op, e.result);
      continue;
    }
    const int thread = e.nested ? nested_thread(e.thread) : e.thread;
    auto last = std::find_if(last_ret.begin(), last_ret.end(),
                             [&](const auto& l) { return l.first == thread; });
    if (last == last_ret.end()) last = last_ret.insert(last, {thread, 0});
    std::uint64_t call = e.call, ret = e.ret;
    if (last->second != 0 && call <= last->second) call = last->second + 1;
    if (ret <= call) ret = call + 1;
    last->second = ret;
    ops.push_back({thread, call, ret, e.op, e.result, e.effect_order});
  }
  return ops;
}

}  // namespace racelab

#endif  // RACELAB_OPERATION_HISTORY_H_
