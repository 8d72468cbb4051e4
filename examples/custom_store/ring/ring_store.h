// The example family of the store-implementer kit: a bounded FIFO ring
// buffer of ints. push() refuses (returns false) when the buffer is full;
// pop() returns nullopt when it is empty. Two implementations: a correct one
// (MutexRing) and one with a check-then-act bug (SplitCheckRing).
#ifndef CUSTOM_STORE_RING_RING_STORE_H_
#define CUSTOM_STORE_RING_RING_STORE_H_

#include <memory>
#include <optional>

namespace ring {

inline constexpr int kCapacity = 2;

class RingStore {
 public:
  virtual ~RingStore() = default;
  virtual bool push(int value) = 0;
  virtual std::optional<int> pop() = 0;
  virtual int size() = 0;
};

// One std::mutex around every method: correct.
std::unique_ptr<RingStore> make_mutex_ring();
// BUG: push() checks for room under the lock, releases it, and stores under
// the lock again; two pushes into the last free slot both succeed and the
// second overwrites the oldest item (check-then-act).
std::unique_ptr<RingStore> make_split_check_ring();

}  // namespace ring

#endif  // CUSTOM_STORE_RING_RING_STORE_H_
