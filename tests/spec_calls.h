// Hand-made calls of a declared spec (racelab/spec.h) with results of the
// test's choosing, run through the spec's own declarations: what its model
// says of one call, and what its invariants say of a whole made-up run,
// without any store running the calls.
#ifndef RACELAB_TESTS_SPEC_CALLS_H_
#define RACELAB_TESTS_SPEC_CALLS_H_

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "racelab/spec.h"

namespace racelab::testing {

// The declared operation `planned` names, with its arguments.
inline DeclaredCall declared(const SpecRef& spec, const PlannedCall& planned) {
  for (std::size_t i = 0; i < spec->ops.size(); ++i) {
    const OperationDecl& d = spec->ops[i];
    if (d.name != planned.name) continue;
    std::string error;
    std::optional<ErasedValue> args = d.make_args(planned.args, &error);
    if (!args) throw std::invalid_argument(planned.name + ": " + error);
    return {spec.get(), static_cast<int>(i), std::move(*args)};
  }
  throw std::invalid_argument("no operation " + planned.name);
}

// A result, of exactly the operation's result type.
template <class R>
DeclaredValue value(R result) {
  return {ErasedValue(std::make_shared<R>(std::move(result)))};
}

// Whether the spec's model, in state `model`, allows `planned` to return
// `result`; on success `model` is the state the call leaves.
template <class Model, class R>
bool steps(const SpecRef& spec, Model& model, const PlannedCall& planned,
           R result) {
  const DeclaredCall c = declared(spec, planned);
  const DeclaredValue v = value(std::move(result));
  return spec->ops[static_cast<std::size_t>(c.op)].step(&model, c.args.get(),
                                                        v.value.get());
}

// One call of a made-up run.
struct MadeCall {
  int thread = 0;
  PlannedCall call;
  DeclaredValue result;
  bool nested = false;
};
template <class R>
MadeCall made(int thread, PlannedCall call, R result) {
  return {thread, std::move(call), value(std::move(result)), false};
}

// What the spec's invariants say of `run` over the quiescent `store` (a
// pointer to the spec's Store class): "name: what broke", one per broken
// invariant.
inline std::vector<std::string> broken_invariants(
    const SpecRef& spec, const std::vector<MadeCall>& run, void* store) {
  std::vector<DeclaredCall> calls;
  for (const MadeCall& m : run) calls.push_back(declared(spec, m.call));
  Calls views;
  for (std::size_t i = 0; i < run.size(); ++i) {
    views.emplace_back(&spec->ops[static_cast<std::size_t>(calls[i].op)],
                       &calls[i], &run[i].result, run[i].thread, run[i].nested);
  }
  std::vector<std::string> broken;
  for (const InvariantDecl& inv : spec->invariants) {
    const std::string what = inv.check(views, store);
    if (!what.empty()) broken.push_back(inv.name + ": " + what);
  }
  return broken;
}

}  // namespace racelab::testing

#endif  // RACELAB_TESTS_SPEC_CALLS_H_
