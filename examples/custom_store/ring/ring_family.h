// The racelab adapter of the ring buffer: its operations as data, the
// sequential model, the scenarios, and the traits of each store under test.
// This file is all a team writes to get racelab's battery for its store.
#ifndef CUSTOM_STORE_RING_RING_FAMILY_H_
#define CUSTOM_STORE_RING_RING_FAMILY_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/kit.h"
#include "ring/ring_store.h"

namespace ring {

struct RingOp {
  enum class Kind { kPush, kPop, kSize };
  Kind kind = Kind::kPush;
  int value = 0;  // push
};

struct RingResult {
  bool pushed = false;        // push
  std::optional<int> popped;  // pop
  int size = 0;               // size
};

// The sequential specification: a FIFO queue of at most kCapacity items.
struct RingModel {
  using State = std::vector<int>;  // oldest first
  using Input = RingOp;
  using Output = RingResult;
  static constexpr const char* kObjectName = "ring";

  static std::size_t hash(const State& s);
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next);
  static std::string describe(const Input& in, const Output& out);
  static std::string describe(const State& s);
};

// The family binding; check_linearizability comes from the model.
struct RingFamily : racelab::LinearizableBy<RingModel> {
  using Store = RingStore;
  using Op = RingOp;
  using Result = RingResult;
  static constexpr const char* kName = "ring";

  static Result execute(Store& store, const Op& op, racelab::OpContext& ctx,
                        racelab::History<Op, Result>* nested);
  static std::string describe(const Op& op);
  static std::string describe(const Op& op, const Result& result);
  static std::optional<Op> parse(std::string_view text);
};
static_assert(racelab::Family<RingFamily>);

std::vector<racelab::Scenario<RingFamily>> ring_scenarios();

// Operations for the fuzz target: push (of a small value), pop or size.
template <class Bytes>
RingOp generate_ring_op(Bytes& bytes, int thread) {
  const int kind = bytes.below(4);
  if (kind < 2) return {RingOp::Kind::kPush, thread * 10 + bytes.below(10)};
  if (kind == 2) return {RingOp::Kind::kPop, 0};
  return {RingOp::Kind::kSize, 0};
}

struct MutexRingTraits {
  using Family = RingFamily;
  static constexpr const char* kStoreName = "ring/mutex";
  static std::unique_ptr<RingStore> make() { return make_mutex_ring(); }
  static std::vector<racelab::Scenario<RingFamily>> scenarios() {
    return ring_scenarios();
  }
  template <class Bytes>
  static RingOp generate_op(Bytes& bytes, int thread) {
    return generate_ring_op(bytes, thread);
  }
};

struct SplitCheckRingTraits {
  using Family = RingFamily;
  static constexpr const char* kStoreName = "ring/split_check";
  static std::unique_ptr<RingStore> make() { return make_split_check_ring(); }
  // The scenarios the bug must be caught in: last_slot only (with one
  // producer, nobody competes for the free slot).
  static std::vector<racelab::Scenario<RingFamily>> scenarios() {
    return {ring_scenarios().front()};
  }
  template <class Bytes>
  static RingOp generate_op(Bytes& bytes, int thread) {
    return generate_ring_op(bytes, thread);
  }
};

}  // namespace ring

#endif  // CUSTOM_STORE_RING_RING_FAMILY_H_
