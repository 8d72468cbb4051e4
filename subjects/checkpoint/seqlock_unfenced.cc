// checkpoint/seqlock_unfenced: every access atomic, no race, and still a
// torn index.
//
// Anti-pattern: a sequence lock whose writer publishes with release stores
// only. retrieve_index() copies the session's index without a lock and
// retries when the sequence number moved (seqlock_sessions.h). commit()
// makes the number odd, writes the id and the count, and makes it even
// again with a release store. Nothing orders the odd store before the data
// stores: a reader may see the new count and still read the old, even
// sequence number after its copy (its acquire fence synchronizes with no
// release of the writer), and return the index with a slot not yet
// written. No interleaving shows it, and x86 keeps stores in order: only
// the C++ memory model (racelab's memory-model mode) lets the reader see
// the count before the odd number.
#include "checkpoint/seqlock_sessions.h"
#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

void append(seqlock::Index& index, CheckpointId id) {
  const std::uint64_t s = index.sequence.load(std::memory_order_relaxed);
  index.sequence.store(s + 1, std::memory_order_relaxed);
  // BUG: no release fence here: the stores below may be seen before the
  // odd sequence number.
  const std::size_t n = index.count.load(std::memory_order_relaxed);
  index.ids[n].store(id, std::memory_order_relaxed);
  index.count.store(n + 1, std::memory_order_relaxed);
  index.sequence.store(s + 2, std::memory_order_release);
}

}  // namespace

std::unique_ptr<CheckpointStore> make_seqlock_unfenced() {
  return std::make_unique<seqlock::Store<append>>();
}

}  // namespace racelab::checkpoint
