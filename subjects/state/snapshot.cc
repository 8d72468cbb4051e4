// state/snapshot: the seed's fix. all() copies the map under the read lock and
// iterates the copy with no lock held: the callback sees one consistent state,
// may call back into the store, and never blocks writers for longer than the
// copy. The cost is the copy, O(n) per all().
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "racelab/sync.h"
#include "state/variants.h"

namespace racelab::state {
namespace {

class Snapshot final : public StateStore {
 public:
  void set(const std::string& key, std::string value) override {
    WriterLock lock(mu_);
    data_[key] = std::move(value);
  }
  std::optional<std::string> get(const std::string& key) override {
    ReaderLock lock(mu_);
    auto it = data_.find(key);
    if (it == data_.end()) return std::nullopt;
    return it->second;
  }
  bool erase(const std::string& key) override {
    WriterLock lock(mu_);
    return data_.erase(key) > 0;
  }

  void all(Yield yield) override {
    std::vector<std::pair<std::string, std::string>> copy;
    {
      ReaderLock lock(mu_);
      copy.assign(data_.begin(), data_.end());
    }
    for (const auto& [key, value] : copy) {
      if (!yield(key, value)) return;
    }
  }

 private:
  SharedMutex mu_{"state.mu"};
  std::unordered_map<std::string, std::string> data_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<StateStore> make_snapshot() {
  return std::make_unique<Snapshot>();
}

}  // namespace racelab::state
