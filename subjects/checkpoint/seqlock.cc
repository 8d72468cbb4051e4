// checkpoint/seqlock: the sequence lock with its writer's fence.
//
// The fix of seqlock_unfenced: a release fence right after the odd sequence
// store. A reader whose copy saw any store after it then synchronizes, at
// its acquire fence, with that fence, and its second sequence load reads
// the odd number or a later one: it retries. Every access stays atomic and
// relaxed where it can (seqlock_sessions.h).
#include "checkpoint/seqlock_sessions.h"
#include "checkpoint/variants.h"

namespace racelab::checkpoint {
namespace {

void append(seqlock::Index& index, CheckpointId id) {
  const std::uint64_t s = index.sequence.load(std::memory_order_relaxed);
  index.sequence.store(s + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  const std::size_t n = index.count.load(std::memory_order_relaxed);
  index.ids[n].store(id, std::memory_order_relaxed);
  index.count.store(n + 1, std::memory_order_relaxed);
  index.sequence.store(s + 2, std::memory_order_release);
}

}  // namespace

std::unique_ptr<CheckpointStore> make_seqlock() {
  return std::make_unique<seqlock::Store<append>>();
}

}  // namespace racelab::checkpoint
