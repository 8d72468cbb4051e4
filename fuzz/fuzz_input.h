// The fuzz input format: how libFuzzer's bytes become a program of a family's
// spec (calls of its declared operations, racelab::call) and a schedule.
// Decoding is total: every byte string, the empty one included, is a valid
// program and schedule, so no input is wasted on a parse error.
//
// Layout (a byte past the end of the input reads as 0):
//   byte 0            subject selector (family targets: variant = byte % count;
//                     per-subject targets ignore it, so corpora are shared)
//   byte 1            setup: bit i set -> setup operation on the i-th session
//                     (checkpoint: commit(s,setup)) or key (state: set(k,s))
//   byte 2            threads = 2 + byte % 3
//   per thread        a count byte (1 + byte % 8 operations), then one byte
//                     per operation (see decode_*_op below)
//   the rest          scheduling decisions, one byte per scheduling point:
//                     enabled[byte % enabled.size()]; when they run out, the
//                     current thread goes on if it can, else the lowest enabled
//                     thread (ByteStrategy).
// Operation bytes, bit fields from the low end:
//   checkpoint  kind = b & 3 (0,1 commit; 2 lookup; 3 index), session =
//               a..d from (b >> 2) & 3; lookup id = (b >> 4) & 3 (3 = the
//               thread's last commit); index pauses at each element when
//               (b >> 4) & 1. Commit payloads are "p<thread>.<op>".
//   state       kind = b & 3 (0 set, 1 get, 2 erase, 3 all), key = k0..k3
//               from (b >> 2) & 3; all(): pause = (b >> 2) & 1, stop after
//               (b >> 3) & 3 entries (0: never). Set values are
//               "v<thread>.<op>". Callbacks never write back (that makes the
//               fixed hold_lock subject deadlock by design).
// The finale is not in the bytes: checkpoint reads back every session the
// program commits to (index, then a lookup of each id it should hold), as
// the checkpoint scenarios do; state ends with all().
#ifndef RACELAB_FUZZ_FUZZ_INPUT_H_
#define RACELAB_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "racelab/internal/sched/strategy.h"
#include "racelab/spec.h"

namespace racelab::fuzz {

inline constexpr int kMinThreads = 2;
inline constexpr int kMaxThreads = 4;
inline constexpr int kMaxOpsPerThread = 8;
inline constexpr int kSessions = 4;  // a, b, c, d
inline constexpr int kKeys = 4;      // k0 .. k3

// Reads bytes in order; past the end every byte reads as 0.
class ByteCursor {
 public:
  ByteCursor(const std::uint8_t* data, std::size_t size)
      : data_(data), size_(size) {}
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : (pos_++, 0); }
  // The bytes not read yet (empty once the cursor passed the end).
  std::vector<std::uint8_t> rest() const;

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// The scheduling part of an input: one byte per scheduling point picks
// enabled[byte % enabled.size()]; then the replay fallback.
class ByteStrategy final : public sched::Strategy {
 public:
  explicit ByteStrategy(std::vector<std::uint8_t> bytes)
      : bytes_(std::move(bytes)) {}
  std::string_view name() const override { return "fuzz"; }
  void begin_schedule(int) override { step_ = 0; }
  int pick(const std::vector<int>& enabled, int current) override;
  bool end_schedule() override { return false; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t step_ = 0;
};

// A decoded input: a program of the family's spec (checkpoint_spec.h,
// state_spec.h), as calls of its declared operations.
struct FuzzCase {
  std::uint8_t selector = 0;
  Plan program;
  std::vector<std::uint8_t> schedule;  // the bytes for ByteStrategy
};

FuzzCase decode_checkpoint_input(const std::uint8_t* data, std::size_t size);
FuzzCase decode_state_input(const std::uint8_t* data, std::size_t size);

// The inverse, for seed corpora and tests: bytes that decode to `program`.
// Throws std::invalid_argument when the program is outside the fuzz domain
// (thread or operation counts, sessions or keys, payloads or values that are
// not the ones the decoder generates, setup other than the decoder's,
// operations or arguments the spec does not declare). The finale is the
// decoder's own and is not encoded.
std::vector<std::uint8_t> encode_checkpoint_input(
    std::uint8_t selector, const Plan& program,
    const std::vector<std::uint8_t>& schedule);
std::vector<std::uint8_t> encode_state_input(
    std::uint8_t selector, const Plan& program,
    const std::vector<std::uint8_t>& schedule);

}  // namespace racelab::fuzz

#endif  // RACELAB_FUZZ_FUZZ_INPUT_H_
