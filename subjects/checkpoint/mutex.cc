// checkpoint/mutex: the seed's fix. One mutex guards the whole manager and
// every method holds it for its whole body, including the copy of the index it
// returns. Simple and clean under every oracle; all sessions contend on one
// lock.
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

class WithMutex final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    std::lock_guard lock(mu_);
    Session& s = sessions_[session];
    CheckpointId id = s.index.size();
    s.payloads[id] = std::move(payload);
    s.index.push_back(id);
    return id;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    std::lock_guard lock(mu_);
    auto s = sessions_.find(session);
    if (s == sessions_.end()) return std::nullopt;
    auto it = s->second.payloads.find(id);
    if (it == s->second.payloads.end()) return std::nullopt;
    return it->second;
  }

  IndexView retrieve_index(const std::string& session) override {
    std::lock_guard lock(mu_);
    auto s = sessions_.find(session);
    if (s == sessions_.end()) return IndexView::owning({});
    return IndexView::owning(s->second.index);  // copied under the lock
  }

 private:
  struct Session {
    std::vector<CheckpointId> index;
    std::unordered_map<CheckpointId, std::string> payloads;
  };
  std::mutex mu_;
  std::unordered_map<std::string, Session> sessions_;
};

}  // namespace

std::unique_ptr<CheckpointStore> make_mutex() {
  return std::make_unique<WithMutex>();
}

}  // namespace racelab::checkpoint
