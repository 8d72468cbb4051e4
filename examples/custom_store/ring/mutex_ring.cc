// ring/mutex: the correct ring buffer. Every method holds one std::mutex,
// so the check for room and the store are one atomic step.
#include <array>
#include <mutex>

#include "ring/ring_store.h"

namespace ring {
namespace {

class MutexRing final : public RingStore {
 public:
  bool push(int value) override {
    std::lock_guard lock(mu_);
    if (count_ == kCapacity) return false;
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

std::unique_ptr<RingStore> make_mutex_ring() {
  return std::make_unique<MutexRing>();
}

}  // namespace ring
