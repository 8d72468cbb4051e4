// state/unlock_during_iteration: the seed bug "inmemory State.All unlocks
// during map iteration", rebuilt in C++.
//
// Anti-pattern: iteration during write. all() holds an iterator into the hash
// map while it releases the read lock around each yield, then re-locks and
// advances. Every map access happens under the lock, so a happens-before race
// detector sees almost nothing (on the Go original, -race found 0 of 20 runs);
// what breaks is the promise of all(): a concurrent set() that rehashes
// reorders the buckets under the iterator, so keys are skipped or yielded
// twice (linearizability); the yielded references are read while a concurrent
// set() overwrites the value (TSan: data race); a concurrent erase() frees the
// node the iterator stands on (ASan: heap-use-after-free). The map is a
// racelab::GoMap, so the gomap oracle reports what Go's runtime would:
// "concurrent map iteration and map write", and its fail-fast iterator sees
// every write between two steps.
#include <mutex>
#include <shared_mutex>
#include <string>

#include "racelab/go_map.h"
#include "state/variants.h"

namespace racelab::state {
namespace {

class UnlockDuringIteration final : public StateStore {
 public:
  void set(const std::string& key, std::string value) override {
    std::lock_guard lock(mu_);
    data_[key] = std::move(value);
  }
  std::optional<std::string> get(const std::string& key) override {
    std::shared_lock lock(mu_);
    auto it = data_.find(key);
    if (it == data_.end()) return std::nullopt;
    return it->second;
  }
  bool erase(const std::string& key) override {
    std::lock_guard lock(mu_);
    return data_.erase(key) > 0;
  }

  void all(Yield yield) override {
    mu_.lock_shared();
    for (auto it = data_.begin(); it != data_.end(); ++it) {
      mu_.unlock_shared();  // BUG: `it` stays in use across the unlock
      if (!yield(it->first, it->second)) return;
      mu_.lock_shared();
    }
    mu_.unlock_shared();
  }

 private:
  std::shared_mutex mu_;
  GoMap<std::string, std::string> data_{"state.data"};
};

}  // namespace

std::unique_ptr<StateStore> make_unlock_during_iteration() {
  return std::make_unique<UnlockDuringIteration>();
}

}  // namespace racelab::state
