// checkpoint/unsynchronized: the seed bug "Synchronize the in-memory checkpoint
// manager", rebuilt in C++.
//
// Anti-pattern: concurrent map writes. Plain hash maps and a vector shared by
// every caller, and no lock at all. Two first commits to different sessions
// insert into the session map at once; a commit and a retrieve_index of one
// session write and read the same vector. TSan reports the data race; Go's
// runtime would die with "concurrent map writes", and racelab::GoMap (the
// gomap oracle) reports the same.
#include <string>
#include <vector>

#include "checkpoint/variants.h"
#include "racelab/go_map.h"

namespace racelab::checkpoint {
namespace {

class Unsynchronized final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    Session& s = sessions_[session];  // may insert: unsynchronized map write
    CheckpointId id = s.index.size();
    s.payloads[id] = std::move(payload);
    s.index.push_back(id);
    return id;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    Session& s = sessions_[session];
    auto it = s.payloads.find(id);
    if (it == s.payloads.end()) return std::nullopt;
    return it->second;
  }

  IndexView retrieve_index(const std::string& session) override {
    return IndexView::owning(sessions_[session].index);
  }

 private:
  struct Session {
    std::vector<CheckpointId> index;
    GoMap<CheckpointId, std::string> payloads{"checkpoint.payloads"};
  };
  GoMap<std::string, Session> sessions_{"checkpoint.sessions"};
};

}  // namespace

std::unique_ptr<CheckpointStore> make_unsynchronized() {
  return std::make_unique<Unsynchronized>();
}

}  // namespace racelab::checkpoint
