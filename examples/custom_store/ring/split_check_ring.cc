// ring/split_check: the anti-pattern check-then-act. push() checks for room
// under the lock and stores under a second acquisition of it. Every access is
// locked, so ThreadSanitizer and -Wthread-safety are both satisfied; but two
// pushes that both saw one free slot both store, the count exceeds the
// capacity and the second store overwrites the oldest item. Only the
// linearizability oracle (and the scenario's conservation invariant) see it.
#include <array>
#include <mutex>

#include "ring/ring_store.h"

namespace ring {
namespace {

class SplitCheckRing final : public RingStore {
 public:
  bool push(int value) override {
    {
      std::lock_guard lock(mu_);
      if (count_ >= kCapacity) return false;
    }
    // BUG: the room checked above may be gone by now.
    std::lock_guard lock(mu_);
    slots_[(head_ + count_) % kCapacity] = value;
    ++count_;
    return true;
  }
  std::optional<int> pop() override {
    std::lock_guard lock(mu_);
    if (count_ == 0) return std::nullopt;
    const int value = slots_[head_];
    head_ = (head_ + 1) % kCapacity;
    --count_;
    return value;
  }
  int size() override {
    std::lock_guard lock(mu_);
    return count_;
  }

 private:
  std::mutex mu_;
  std::array<int, kCapacity> slots_ = {};
  int head_ = 0;
  int count_ = 0;
};

}  // namespace

std::unique_ptr<RingStore> make_split_check_ring() {
  return std::make_unique<SplitCheckRing>();
}

}  // namespace ring
