// state/snapshot: the seed's fix. all() copies the map under the read lock and
// iterates the copy with no lock held: the callback sees one consistent state,
// may call back into the store, and never blocks writers for longer than the
// copy. The cost is the copy, O(n) per all().
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "state/variants.h"

namespace racelab::state {
namespace {

class Snapshot final : public StateStore {
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
    std::vector<std::pair<std::string, std::string>> copy;
    {
      std::shared_lock lock(mu_);
      copy.assign(data_.begin(), data_.end());
    }
    for (const auto& [key, value] : copy) {
      if (!yield(key, value)) return;
    }
  }

 private:
  std::shared_mutex mu_;
  std::unordered_map<std::string, std::string> data_;
};

}  // namespace

std::unique_ptr<StateStore> make_snapshot() {
  return std::make_unique<Snapshot>();
}

}  // namespace racelab::state
