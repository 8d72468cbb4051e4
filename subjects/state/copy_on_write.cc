// state/copy_on_write: readers never block.
//
// The map is immutable once published. Readers copy the current snapshot
// pointer and read the map without any lock; writers serialize on a mutex, copy
// the map, change the copy and publish it. all() iterates one snapshot, so it
// sees one consistent state and may call back into the store. The cost moves to
// writers: every set() or erase() copies the whole map.
//
// The pointer itself sits behind a tiny mutex held only to copy or swap it,
// never while a map is copied or iterated. (libstdc++'s
// std::atomic<std::shared_ptr> guards the pointer with a lock bit that
// ThreadSanitizer does not understand, so it would report this fixed store.)
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "state/variants.h"

namespace racelab::state {
namespace {

using Map = std::unordered_map<std::string, std::string>;

class CopyOnWrite final : public StateStore {
 public:
  void set(const std::string& key, std::string value) override {
    std::lock_guard lock(write_mu_);
    auto next = std::make_shared<Map>(*snapshot());
    (*next)[key] = std::move(value);
    publish(std::move(next));
  }
  std::optional<std::string> get(const std::string& key) override {
    std::shared_ptr<const Map> map = snapshot();
    auto it = map->find(key);
    if (it == map->end()) return std::nullopt;
    return it->second;
  }
  bool erase(const std::string& key) override {
    std::lock_guard lock(write_mu_);
    std::shared_ptr<const Map> map = snapshot();
    if (!map->contains(key)) return false;
    auto next = std::make_shared<Map>(*map);
    next->erase(key);
    publish(std::move(next));
    return true;
  }

  void all(Yield yield) override {
    std::shared_ptr<const Map> map = snapshot();
    for (const auto& [key, value] : *map) {
      if (!yield(key, value)) return;
    }
  }

 private:
  std::shared_ptr<const Map> snapshot() {
    std::lock_guard lock(pointer_mu_);
    return current_;
  }
  void publish(std::shared_ptr<const Map> next) {
    std::lock_guard lock(pointer_mu_);
    current_.swap(next);
  }  // the old map is released here, outside the lock

  std::mutex write_mu_;  // serializes writers
  std::mutex pointer_mu_;
  std::shared_ptr<const Map> current_ = std::make_shared<const Map>();
};

}  // namespace

std::unique_ptr<StateStore> make_copy_on_write() {
  return std::make_unique<CopyOnWrite>();
}

}  // namespace racelab::state
