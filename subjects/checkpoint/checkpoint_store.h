// The checkpoint family: an in-memory checkpoint manager keyed by session id.
//
// Each session holds an ordered index of checkpoint ids and a map from id to
// payload. Ids are assigned per session in commit order: 0, 1, 2, ... (the
// original Go manager used len(index) as the id). This header is the API every
// checkpoint subject implements; the variants differ only in how they
// synchronize.
#ifndef RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_STORE_H_
#define RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace racelab::checkpoint {

using CheckpointId = std::uint64_t;

// What retrieve_index() returns: the ids of a session in commit order.
//
// A correct store returns an owning view (a private copy). The escaping_index
// subject returns a borrowing view of its internal vector, which the caller
// then reads after the store's lock is gone: that is its bug.
class IndexView {
 public:
  static IndexView owning(std::vector<CheckpointId> ids) {
    auto copy =
        std::make_shared<const std::vector<CheckpointId>>(std::move(ids));
    const std::vector<CheckpointId>* target = copy.get();
    return IndexView(target, std::move(copy));
  }
  // `ids` must outlive every read of the view; nothing enforces it.
  static IndexView borrowing(const std::vector<CheckpointId>& ids) {
    return IndexView(&ids, nullptr);
  }

  // Reads the underlying vector now (for a borrowing view, without any lock).
  std::span<const CheckpointId> ids() const { return {*target_}; }

 private:
  IndexView(const std::vector<CheckpointId>* target,
            std::shared_ptr<const std::vector<CheckpointId>> owner)
      : target_(target), owner_(std::move(owner)) {}

  const std::vector<CheckpointId>* target_;
  std::shared_ptr<const std::vector<CheckpointId>> owner_;
};

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;

  // Appends `payload` to the session's checkpoints (creating the session on
  // first use) and returns its id.
  virtual CheckpointId commit(const std::string& session,
                              std::string payload) = 0;

  // The payload of checkpoint `id` of `session`, or nullopt if there is none.
  virtual std::optional<std::string> lookup(const std::string& session,
                                            CheckpointId id) = 0;

  // The session's checkpoint ids in commit order (empty for an unknown
  // session).
  virtual IndexView retrieve_index(const std::string& session) = 0;
};

}  // namespace racelab::checkpoint

#endif  // RACELAB_SUBJECTS_CHECKPOINT_CHECKPOINT_STORE_H_
