// The sequential model of the checkpoint family: the reference semantics every
// variant must match when called from one thread, and the specification the
// linearizability oracle checks concurrent histories against.
#ifndef RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_MODEL_H_
#define RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_MODEL_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_store.h"

namespace racelab::checkpoint {

class CheckpointModel {
 public:
  CheckpointId commit(const std::string& session, std::string payload) {
    std::vector<std::string>& payloads = sessions_[session];
    payloads.push_back(std::move(payload));
    return payloads.size() - 1;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) const {
    auto it = sessions_.find(session);
    if (it == sessions_.end() || id >= it->second.size()) return std::nullopt;
    return it->second[id];
  }

  std::vector<CheckpointId> retrieve_index(const std::string& session) const {
    std::vector<CheckpointId> ids;
    auto it = sessions_.find(session);
    if (it == sessions_.end()) return ids;
    for (CheckpointId id = 0; id < it->second.size(); ++id) ids.push_back(id);
    return ids;
  }

  // Session -> payloads in commit order (the id is the position).
  const std::map<std::string, std::vector<std::string>>& sessions() const {
    return sessions_;
  }

  friend bool operator==(const CheckpointModel&,
                         const CheckpointModel&) = default;

 private:
  std::map<std::string, std::vector<std::string>> sessions_;
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_MODEL_H_
