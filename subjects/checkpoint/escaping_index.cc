// checkpoint/escaping_index: every method locks, yet the store still races.
//
// Anti-pattern: an escaping reference. retrieve_index() hands out a view of the
// session's internal vector instead of a copy; the caller reads it after the
// lock is released. A concurrent commit to the same session writes the vector
// while the caller reads it (TSan: data race), and when push_back reallocates,
// the caller reads freed memory (ASan: heap-use-after-free). The Go original
// returned the slice header the same way.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

class EscapingIndex final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    std::lock_guard lock(mu_);
    Session& s = session_locked(session);
    CheckpointId id = s.index.size();
    s.payloads[id] = std::move(payload);
    s.index.push_back(id);
    return id;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    std::lock_guard lock(mu_);
    Session& s = session_locked(session);
    auto it = s.payloads.find(id);
    if (it == s.payloads.end()) return std::nullopt;
    return it->second;
  }

  IndexView retrieve_index(const std::string& session) override {
    std::lock_guard lock(mu_);
    // BUG: the view outlives the lock; the caller reads s.index unlocked.
    return IndexView::borrowing(session_locked(session).index);
  }

 private:
  struct Session {
    std::vector<CheckpointId> index;
    std::unordered_map<CheckpointId, std::string> payloads;
  };

  Session& session_locked(const std::string& session) {
    std::unique_ptr<Session>& s = sessions_[session];
    if (!s) s = std::make_unique<Session>();
    return *s;
  }

  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Session>> sessions_;
};

}  // namespace

std::unique_ptr<CheckpointStore> make_escaping_index() {
  return std::make_unique<EscapingIndex>();
}

}  // namespace racelab::checkpoint
