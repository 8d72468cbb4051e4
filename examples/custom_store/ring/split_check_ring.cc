// ring/split_check: the anti-pattern check-then-act. push() checks for room
// under the lock and stores under a second acquisition of it. Every access is
// locked, so ThreadSanitizer and -Wthread-safety are both satisfied; but two
// pushes that both saw one free slot both store, the count exceeds the
// capacity and the second store overwrites the oldest item. Only the
// linearizability oracle (and the scenario's conservation invariant) see it.
#include <array>

#include "racelab/sync.h"
#include "ring/ring_store.h"

namespace ring {
namespace {

class SplitCheckRing final : public RingStore {
 public:
  bool push(int value) override {
    {
      racelab::MutexLock lock(mu_);
      if (count_ >= kCapacity) return false;
    }
    // BUG: the room checked above may be gone by now.
    racelab::MutexLock lock(mu_);
    slots_[(head_ + count_) % kCapacity] = value;
    ++count_;
    return true;
  }
  std::optional<int> pop() override {
    racelab::MutexLock lock(mu_);
    if (count_ == 0) return std::nullopt;
    const int value = slots_[head_];
    head_ = (head_ + 1) % kCapacity;
    --count_;
    return value;
  }
  int size() override {
    racelab::MutexLock lock(mu_);
    return count_;
  }

 private:
  racelab::Mutex mu_{"ring.mu"};
  std::array<int, kCapacity> slots_ ABSL_GUARDED_BY(mu_) = {};
  int head_ ABSL_GUARDED_BY(mu_) = 0;
  int count_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace

std::unique_ptr<RingStore> make_split_check_ring() {
  return std::make_unique<SplitCheckRing>();
}

}  // namespace ring
