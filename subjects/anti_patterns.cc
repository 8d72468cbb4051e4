// The anti-patterns that `racelab demo` walks through, each shown by a buggy
// subject, its fix and the scenario that breaks it. docs/anti-patterns/ has
// the long form of each.
#include "anti_patterns.h"

namespace racelab {

const std::vector<AntiPatternText>& anti_pattern_texts() {
  static const auto* list = new std::vector<AntiPatternText>{
      {"concurrent-map-write", "checkpoint/unsynchronized", "checkpoint/mutex",
       "seed_concurrent_sessions", "unsynchronized map write",
       "shared maps written with no lock at all (the checkpoint seed)",
       "Every commit inserts into one session map that no lock protects. Two "
       "first commits to different sessions insert at once; in Go the runtime "
       "dies with 'concurrent map writes', in C++ the hash table's buckets are "
       "corrupted silently.",
       "This is a data race in the plain sense: two threads write the same "
       "memory with no happens-before edge between them, so TSan reports it "
       "on the first schedule that interleaves the two inserts. The gomap "
       "oracle reports it the way Go's runtime would. Linearizability and the "
       "invariants only notice when the corruption happens to lose a commit."},
      {"iteration-during-write", "state/unlock_during_iteration",
       "state/snapshot", "seed_slow_reader", "BUG",
       "an iterator held across unlock / yield / relock (the state seed)",
       "all() walks the hash map, releasing the read lock around every "
       "callback and re-taking it to advance. A set() in that window rehashes "
       "the map under the paused iterator: keys are skipped or yielded twice, "
       "and the reference handed to the callback may be overwritten or freed.",
       "Every map access in all() happens under the lock, so a "
       "happens-before detector sees mostly ordered accesses: on the Go "
       "original, -race reported nothing in 20 of 20 runs. TSan fires only "
       "when the callback reads a yielded value that a concurrent set() "
       "overwrites after the unlock. What breaks is the promise of all() "
       "(one consistent state): the linearizability oracle sees it when the "
       "rehash actually reorders the buckets under the iterator, which the "
       "full-size program (1000 keys) does and the small controlled one (8 "
       "keys) rarely does; gomap flags any write during an iteration, "
       "whatever its effect, as Go's runtime does."},
      {"escaping-reference", "checkpoint/escaping_index", "checkpoint/mutex",
       "index_reader_vs_committer", "BUG",
       "a view of locked data returned to the caller, read after unlock",
       "retrieve_index() takes the lock, but returns a view of the session's "
       "internal vector; the caller ranges over it after the lock is gone "
       "while a commit push_back()s into the same vector, possibly "
       "reallocating it.",
       "The reader's access happens after the unlock, so no lock orders it "
       "against the committer's write: TSan reports the race. ASan reports "
       "heap-use-after-free when the vector reallocates (the asan build). "
       "Linearizability sees a stale or torn index only sometimes."},
      {"check-then-act", "checkpoint/split_lock", "checkpoint/mutex",
       "same_session_first_commit", "BUG",
       "a check under the lock, the act under a second acquisition",
       "commit() looks the session up under the lock; when it is missing it "
       "builds the session outside the lock and publishes it under the lock "
       "again. Two first commits to one session both see 'missing', both "
       "build, and the second publish overwrites the first: a commit that "
       "returned an id is lost.",
       "Every shared access is under the lock, so there is no data race and "
       "TSan is silent on every schedule: a happens-before detector checks "
       "that accesses are ordered, not that the check still holds when the "
       "act happens. The lost commit is a result no sequential order "
       "explains: the linearizability oracle and the scenario's invariants "
       "catch it."},
      {"stale-cas-retry", "checkpoint/stale_cas", "checkpoint/lock_free",
       "same_session_first_commit", "BUG",
       "a CAS retry that keeps a value computed from the stale expected value",
       "commit() reads the session's top checkpoint, takes top's id + 1 as "
       "its id and pushes its node with a compare-and-swap loop. When another "
       "commit pushes in between, the CAS fails and retries onto the new top, "
       "as a Treiber push should, but keeps the id computed from the old top: "
       "two commits return the same id and one payload can no longer be "
       "looked up.",
       "Every publication is a release CAS and every read an acquire load, so "
       "each access is ordered and TSan is silent on every schedule: nothing "
       "races, one operation's two atomic steps are simply not atomic "
       "together. The duplicated id is a result no sequential order "
       "explains: linearizability and the invariants catch it. The window "
       "lies between two atomic operations inside one commit, so a "
       "controlled scheduler finds it only by preempting at an atomic, and "
       "free-running threads only when the OS happens to preempt there."},
      {"unfenced-seqlock", "checkpoint/seqlock_unfenced", "checkpoint/seqlock",
       "index_reader_vs_committer", "BUG",
       "a sequence lock whose writer publishes with release stores only "
       "(a wrong value, no race)",
       "retrieve_index() copies the session's index without a lock and "
       "retries when the sequence number moved. commit() makes the number "
       "odd, writes the id and the count, and makes it even with a release "
       "store. Nothing orders the odd store before the data stores: the "
       "reader can see the new count, read the slot before its id lands, and "
       "still read the old even number after its copy, so it returns an "
       "index with a wrong id.",
       "Every field is an atomic, so nothing races and TSan is silent. No "
       "interleaving shows the bug either: in every sequentially consistent "
       "order, a reader that saw the new count sees the odd number after "
       "it, and dfs verifies the buggy store clean; x86 keeps stores in "
       "order, so stress runs never show it. Only the C++ memory model lets "
       "a load read an older store: racelab's memory-model mode makes which "
       "store each load reads a decision of the schedule, the trace shows "
       "the stale read, and linearizability and the invariants catch the "
       "wrong index."},
      {"lock-held-across-callback", "state/hold_lock", "state/snapshot",
       "reentrant_yield", "held across every callback",
       "the read lock held while user callbacks run (deadlocks on re-entry)",
       "all() holds the read lock for the whole iteration, callbacks "
       "included. A callback that writes to the state calls set(), which "
       "needs the write lock its own thread already holds shared: the lock "
       "is not re-entrant, and the thread waits for itself forever.",
       "Nothing races and no result is wrong, so TSan, linearizability and "
       "the invariants have nothing to judge: the run never finishes. The "
       "deadlock is reported whichever oracles are selected: in controlled "
       "mode the scheduler sees every live thread blocked and reports the "
       "wait-for cycle at once; in stress mode the interposed lock notices "
       "a thread requesting a lock it already holds."},
  };
  return *list;
}

}  // namespace racelab
