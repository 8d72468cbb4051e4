// checkpoint/split_lock: no data race anywhere, and still wrong.
//
// Anti-pattern: check-then-act. commit() looks the session up under the lock,
// and when it is missing, builds the new session (with the first checkpoint in
// it) outside the lock, then takes the lock again to publish it. Two first
// commits to one session both see "missing", both build a session, and the
// second publish overwrites the first: a commit that returned id 0 is lost.
// Every shared access is locked, so TSan is silent; the linearizability oracle
// (a committed checkpoint that is not found) catches it.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

struct Session {
  std::vector<CheckpointId> index;
  std::unordered_map<CheckpointId, std::string> payloads;
};

class SplitLock final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    {
      std::lock_guard lock(mu_);
      auto it = sessions_.find(session);
      if (it != sessions_.end()) return append(*it->second, std::move(payload));
    }
    // BUG: the session was missing a moment ago; another first commit may be
    // doing exactly this right now.
    auto fresh = std::make_shared<Session>();
    CheckpointId id = append(*fresh, std::move(payload));
    std::lock_guard lock(mu_);
    sessions_[session] = std::move(fresh);  // overwrites a concurrent publish
    return id;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    std::lock_guard lock(mu_);
    auto s = sessions_.find(session);
    if (s == sessions_.end()) return std::nullopt;
    auto it = s->second->payloads.find(id);
    if (it == s->second->payloads.end()) return std::nullopt;
    return it->second;
  }

  IndexView retrieve_index(const std::string& session) override {
    std::lock_guard lock(mu_);
    auto s = sessions_.find(session);
    if (s == sessions_.end()) return IndexView::owning({});
    return IndexView::owning(s->second->index);
  }

 private:
  static CheckpointId append(Session& s, std::string payload) {
    CheckpointId id = s.index.size();
    s.payloads[id] = std::move(payload);
    s.index.push_back(id);
    return id;
  }

  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace

std::unique_ptr<CheckpointStore> make_split_lock() {
  return std::make_unique<SplitLock>();
}

}  // namespace racelab::checkpoint
