// checkpoint/stale_cas: lock-free, every access ordered, and still wrong.
//
// Anti-pattern: a compare-and-swap retry that keeps a value computed from the
// stale expected value. commit() reads the session's top, computes the new
// id from it (top's id + 1) and pushes with a CAS loop (treiber_sessions.h).
// When another commit pushes between the load and the CAS, the CAS fails and
// retries onto the new top, as a Treiber push should, but with the id taken
// from the old one: two commits return the same id, and lookup() of that id
// finds only the newer payload. Every publication is release/acquire, so
// ThreadSanitizer is silent; the linearizability and invariant oracles see
// the duplicated id. The window is the gap between two atomic operations, so
// only a scheduler that can preempt inside an atomic reaches it.
#include <atomic>
#include <string>

#include "checkpoint/treiber_sessions.h"
#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

using treiber::Checkpoint;

class StaleCas final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    std::atomic<const Checkpoint*>& top = table_.find_or_create(session).top;
    const Checkpoint* seen = top.load(std::memory_order_acquire);
    auto* node = new Checkpoint{seen == nullptr ? 0 : seen->id + 1,
                                std::move(payload), seen};
    // BUG: a failed CAS moves node->next to the new top, but node->id still
    // follows `seen`: the id another commit has just taken.
    while (!top.compare_exchange_weak(node->next, node,
                                      std::memory_order_release,
                                      std::memory_order_acquire)) {
    }
    return node->id;
  }

  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    return treiber::payload_of(table_.newest(session), id);
  }

  IndexView retrieve_index(const std::string& session) override {
    return treiber::index_of(table_.newest(session));
  }

 private:
  treiber::SessionTable table_;
};

}  // namespace

std::unique_ptr<CheckpointStore> make_stale_cas() {
  return std::make_unique<StaleCas>();
}

}  // namespace racelab::checkpoint
