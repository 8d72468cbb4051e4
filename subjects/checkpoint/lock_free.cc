// checkpoint/lock_free: fixed, and no lock anywhere.
//
// A Treiber stack of checkpoints per session (treiber_sessions.h). A commit
// takes its id from the top it pushes onto and recomputes it whenever its
// compare-and-swap fails, so the id and the push are one atomic step: two
// commits that race for one id both retry until each has its own.
#include <atomic>
#include <string>

#include "checkpoint/treiber_sessions.h"
#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

using treiber::Checkpoint;

class LockFree final : public CheckpointStore {
 public:
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    std::atomic<const Checkpoint*>& top = table_.find_or_create(session).top;
    auto* node = new Checkpoint{0, std::move(payload),
                                top.load(std::memory_order_acquire)};
    do {  // a failed CAS reloads node->next; the id follows the new top
      node->id = node->next == nullptr ? 0 : node->next->id + 1;
    } while (!top.compare_exchange_weak(node->next, node,
                                        std::memory_order_release,
                                        std::memory_order_acquire));
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

std::unique_ptr<CheckpointStore> make_lock_free() {
  return std::make_unique<LockFree>();
}

}  // namespace racelab::checkpoint
