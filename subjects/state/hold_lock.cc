// state/hold_lock: the other fix the seed discusses. all() holds the read lock
// for the whole iteration, callbacks included. Consistent and copy-free, but a
// slow callback blocks every writer, and a callback that writes to the state
// (set() needs the write lock this thread already holds shared) deadlocks: the
// lock is not re-entrant.
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "state/variants.h"

namespace racelab::state {
namespace {

class HoldLock final : public StateStore {
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
    std::shared_lock lock(mu_);  // held across every callback
    for (const auto& [key, value] : data_) {
      if (!yield(key, value)) return;
    }
  }

 private:
  std::shared_mutex mu_;
  std::unordered_map<std::string, std::string> data_;
};

}  // namespace

std::unique_ptr<StateStore> make_hold_lock() {
  return std::make_unique<HoldLock>();
}

}  // namespace racelab::state
