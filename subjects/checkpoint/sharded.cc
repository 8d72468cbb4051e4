// checkpoint/sharded: fixed and fast.
//
// The session map is split into shards, each behind its own mutex, and every
// session has its own mutex for its index and payloads. Sessions that hash to
// different shards never contend; a commit holds the shard lock only long
// enough to find or create its session (atomically: no check-then-act), and
// retrieve_index copies under the session lock.
#include <array>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

class Session {
 public:
  CheckpointId append(std::string payload) {
    std::lock_guard lock(mu_);
    CheckpointId id = index_.size();
    payloads_[id] = std::move(payload);
    index_.push_back(id);
    return id;
  }
  std::optional<std::string> find(CheckpointId id) {
    std::lock_guard lock(mu_);
    auto it = payloads_.find(id);
    if (it == payloads_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<CheckpointId> index() {
    std::lock_guard lock(mu_);
    return index_;
  }

 private:
  std::mutex mu_;
  std::vector<CheckpointId> index_;
  std::unordered_map<CheckpointId, std::string> payloads_;
};

class Sharded final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    return find_or_create(session)->append(std::move(payload));
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    std::shared_ptr<Session> s = find(session);
    if (!s) return std::nullopt;
    return s->find(id);
  }

  IndexView retrieve_index(const std::string& session) override {
    std::shared_ptr<Session> s = find(session);
    if (!s) return IndexView::owning({});
    return IndexView::owning(s->index());
  }

 private:
  static constexpr size_t kShards = 16;
  struct Shard {
    std::mutex mu;
    std::unordered_map<std::string, std::shared_ptr<Session>> sessions;
  };

  Shard& shard_of(const std::string& session) {
    return shards_[std::hash<std::string>{}(session) % kShards];
  }

  std::shared_ptr<Session> find(const std::string& session) {
    Shard& shard = shard_of(session);
    std::lock_guard lock(shard.mu);
    auto it = shard.sessions.find(session);
    return it == shard.sessions.end() ? nullptr : it->second;
  }

  std::shared_ptr<Session> find_or_create(const std::string& session) {
    Shard& shard = shard_of(session);
    std::lock_guard lock(shard.mu);
    std::shared_ptr<Session>& s = shard.sessions[session];
    if (!s) s = std::make_shared<Session>();
    return s;
  }

  std::array<Shard, kShards> shards_;
};

}  // namespace

std::unique_ptr<CheckpointStore> make_sharded() {
  return std::make_unique<Sharded>();
}

}  // namespace racelab::checkpoint
