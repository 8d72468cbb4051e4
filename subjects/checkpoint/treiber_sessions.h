// The lock-free session table of checkpoint/lock_free and checkpoint/stale_cas
// (the two differ only in how commit() pushes a checkpoint).
//
// Sessions live in a fixed table of buckets, each an insert-only list behind
// an atomic head; a session's checkpoints are a Treiber stack (newest first)
// of nodes that never change once pushed. Nothing is removed while the table
// lives, so a node once reached stays valid (no ABA, nothing to reclaim).
// Every push is a compare-and-swap with release order and every read of a head
// an acquire load, so whoever reaches a node sees its fields.
#ifndef RACELAB_SUBJECTS_CHECKPOINT_TREIBER_SESSIONS_H_
#define RACELAB_SUBJECTS_CHECKPOINT_TREIBER_SESSIONS_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_store.h"

namespace racelab::checkpoint::treiber {

struct Checkpoint {
  CheckpointId id;
  std::string payload;
  const Checkpoint* next;  // the one pushed before it
};

struct Session {
  std::string name;
  Session* next = nullptr;  // in its bucket; set before the session is pushed
  std::atomic<const Checkpoint*> top{nullptr};
};

class SessionTable {
 public:
  SessionTable() = default;
  SessionTable(const SessionTable&) = delete;
  SessionTable& operator=(const SessionTable&) = delete;
  ~SessionTable() {
    for (std::atomic<Session*>& bucket : buckets_) {
      for (Session* s = bucket.load(); s != nullptr;) {
        for (const Checkpoint* c = s->top.load(); c != nullptr;) {
          delete std::exchange(c, c->next);
        }
        delete std::exchange(s, s->next);
      }
    }
  }

  // The session's newest checkpoint, or nullptr.
  const Checkpoint* newest(const std::string& session) {
    Session* s =
        find_in(bucket(session).load(std::memory_order_acquire), session);
    return s == nullptr ? nullptr : s->top.load(std::memory_order_acquire);
  }

  // Pushes a new session unless the bucket has it: a failed CAS means another
  // session was pushed, which may be this one, so look again.
  Session& find_or_create(const std::string& session) {
    std::atomic<Session*>& head = bucket(session);
    Session* first = head.load(std::memory_order_acquire);
    Session* fresh = nullptr;
    for (;;) {
      if (Session* s = find_in(first, session)) {
        delete fresh;
        return *s;
      }
      if (fresh == nullptr) fresh = new Session{session};
      fresh->next = first;
      if (head.compare_exchange_weak(first, fresh, std::memory_order_release,
                                     std::memory_order_acquire)) {
        return *fresh;
      }
    }
  }

 private:
  std::atomic<Session*>& bucket(const std::string& session) {
    return buckets_[std::hash<std::string>{}(session) % buckets_.size()];
  }
  static Session* find_in(Session* s, const std::string& session) {
    while (s != nullptr && s->name != session) s = s->next;
    return s;
  }

  std::array<std::atomic<Session*>, 64> buckets_{};
};

// lookup() and retrieve_index() of both variants: walks from `newest`.
inline std::optional<std::string> payload_of(const Checkpoint* newest,
                                             CheckpointId id) {
  for (const Checkpoint* c = newest; c != nullptr; c = c->next) {
    if (c->id == id) return c->payload;
  }
  return std::nullopt;
}
inline IndexView index_of(const Checkpoint* newest) {
  std::vector<CheckpointId> ids;
  for (const Checkpoint* c = newest; c != nullptr; c = c->next) {
    ids.push_back(c->id);
  }
  std::reverse(ids.begin(), ids.end());
  return IndexView::owning(std::move(ids));
}

}  // namespace racelab::checkpoint::treiber

#endif  // RACELAB_SUBJECTS_CHECKPOINT_TREIBER_SESSIONS_H_
