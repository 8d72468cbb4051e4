// The sessions of the seqlock subjects: a session's index under a sequence
// lock, read without any lock, written by commits that a mutex serializes.
//
// Every field of the index is an atomic (relaxed), so no access races and
// ThreadSanitizer has nothing to report; a reader that copied the index
// while a commit wrote it must find that out from the sequence number and
// retry. Whether it can depends on memory orders alone: the writer's odd
// sequence store must be ordered before its data stores (a release fence),
// and the reader's data loads before its second sequence load (an acquire
// fence; H.-J. Boehm, "Can seqlocks get along with programming language
// memory models?", MSPC 2012). The variants differ in the writer's fence.
#ifndef RACELAB_SUBJECTS_CHECKPOINT_SEQLOCK_SESSIONS_H_
#define RACELAB_SUBJECTS_CHECKPOINT_SEQLOCK_SESSIONS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/checkpoint_store.h"

namespace racelab::checkpoint::seqlock {

struct Index {
  // Room for every scenario's commits to one session; a commit past it
  // aborts (it would be a finding, not a silent loss).
  static constexpr std::size_t kCapacity = 64;
  std::atomic<std::uint64_t> sequence{0};  // odd while a commit writes
  std::atomic<std::size_t> count{0};
  std::array<std::atomic<CheckpointId>, kCapacity> ids{};

  // A consistent copy: retried until the sequence number is the same, and
  // even, before and after the copy.
  std::vector<CheckpointId> read() const {
    for (;;) {
      const std::uint64_t before = sequence.load(std::memory_order_acquire);
      if (before % 2 == 0) {
        const std::size_t n = count.load(std::memory_order_relaxed);
        std::vector<CheckpointId> copy;
        for (std::size_t i = 0; i < n && i < kCapacity; ++i) {
          copy.push_back(ids[i].load(std::memory_order_relaxed));
        }
        std::atomic_thread_fence(std::memory_order_acquire);
        if (sequence.load(std::memory_order_relaxed) == before) return copy;
      }
      std::this_thread::yield();  // a commit is writing: let it finish
    }
  }
};

struct Session {
  Index index;
  std::vector<std::string> payloads;  // under the table's mutex
};

// The session table: found or created under the mutex; sessions are never
// removed, so a reader keeps its pointer after the unlock.
class Table {
 public:
  // Runs `write(session, id)` under the mutex with the session's next id,
  // then keeps the payload; returns the id.
  template <class Write>
  CheckpointId commit(const std::string& name, std::string payload,
                      Write write) {
    std::lock_guard<std::mutex> lock(mu_);
    std::unique_ptr<Session>& session = sessions_[name];
    if (!session) session = std::make_unique<Session>();
    const CheckpointId id = session->payloads.size();
    if (id >= Index::kCapacity) std::abort();
    write(session->index, id);
    session->payloads.push_back(std::move(payload));
    return id;
  }

  std::optional<std::string> lookup(const std::string& name, CheckpointId id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto found = sessions_.find(name);
    if (found == sessions_.end() || id >= found->second->payloads.size()) {
      return std::nullopt;
    }
    return found->second->payloads[id];
  }

  // The session's index, read without the mutex.
  std::vector<CheckpointId> index(const std::string& name) {
    const Session* session = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto found = sessions_.find(name);
      if (found != sessions_.end()) session = found->second.get();
    }
    return session == nullptr ? std::vector<CheckpointId>{}
                              : session->index.read();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<Session>> sessions_;
};

// A checkpoint store on a Table whose commits write the index with
// `Append(index, id)` (the variants' one difference).
template <void (*Append)(Index&, CheckpointId)>
class Store final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    return table_.commit(session, std::move(payload), Append);
  }
  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    return table_.lookup(session, id);
  }
  IndexView retrieve_index(const std::string& session) override {
    return IndexView::owning(table_.index(session));
  }

 private:
  Table table_;
};

}  // namespace racelab::checkpoint::seqlock

#endif  // RACELAB_SUBJECTS_CHECKPOINT_SEQLOCK_SESSIONS_H_
