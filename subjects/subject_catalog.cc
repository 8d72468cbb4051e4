// The subject catalog's entries, each with its expectations: for every
// scenario of the family, the verdict a run must produce, in both directions
// (a buggy subject must be caught, a fixed one must stay clean), with the
// reason. The registry validates the rows against the catalog and the gate
// enforces them.
//
// One rule for every buggy case: a store the bug has corrupted may go on to
// crash or to hang (a rehashed map whose iterator loops forever), so `crash`
// and `timeout` are allowed beside the kind that catches it, in every row that
// catches something, and nowhere else. A fixed store that crashes or hangs is
// always a mismatch. Rows list only the further consequences of their bug.
//
// A lost or duplicated result is caught by the family's sequential model
// (not_linearizable) or by the scenario's own checks (invariant_violation),
// whichever sees it first: rows name both.
#include "subject_catalog.h"

#include "checkpoint/variants.h"
#include "state/variants.h"

namespace racelab {
namespace {

using enum FindingKind;

constexpr ModeList kBoth = {Mode::kStress, Mode::kControlled};
constexpr ModeList kControlledOnly = {Mode::kControlled};
constexpr KindList kClean = {};
constexpr KindList kFallout = {kCrash, kTimeout};
// A race on a container may also return nonsense or touch freed memory.
constexpr KindList kRaceFallout =
    kFallout + KindList{kNotLinearizable, kInvariantViolation, kUseAfterFree,
                        kConcurrentMapWrite};

// checkpoint/unsynchronized: no lock at all.
constexpr ExpectationRow kUnsynchronized[] = {
    {"seed_concurrent_sessions",
     kBoth,
     {kDataRace},
     kRaceFallout,
     "first commits of 64 sessions insert into one unlocked map"},
    {"same_session_first_commit",
     kBoth,
     {kDataRace},
     kRaceFallout,
     "8 threads' unlocked commits write the session map and one session's "
     "vector"},
    {"index_reader_vs_committer",
     kBoth,
     {kDataRace},
     kRaceFallout,
     "unlocked push_back while the index is copied"},
    // Generated programs (controlled mode: pct and random run a new program
    // in every schedule, dfs one program per search tree).
    {"generated",
     kControlledOnly,
     {kDataRace},
     kRaceFallout,
     "any two threads write the unlocked session map"},
};

// checkpoint/mutex: the seed's fix.
constexpr ExpectationRow kMutex[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "every method holds the lock"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "every method holds the lock"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "the index is copied under the lock"},
    {"generated", kControlledOnly, kClean, kClean,
     "every method holds the lock"},
};

// checkpoint/escaping_index: the view outlives the lock.
constexpr ExpectationRow kEscapingIndex[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "each thread reads only its own session's index, which nobody writes "
     "then"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "no index is read while commits run"},
    {"index_reader_vs_committer",
     kBoth,
     {kDataRace, kUseAfterFree},
     kFallout + KindList{kNotLinearizable, kInvariantViolation},
     "the reader ranges over the live vector while commits push_back (and "
     "reallocate) it"},
    {"generated",
     kControlledOnly,
     {kDataRace},
     kFallout + KindList{kUseAfterFree, kNotLinearizable, kInvariantViolation},
     "an index read pauses while another thread commits to the same session"},
};

// checkpoint/split_lock: check-then-act, no data race.
constexpr ExpectationRow kSplitLock[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "one first commit per session: the check-then-act window has no "
     "competitor"},
    {"same_session_first_commit",
     kBoth,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "two first commits both create the session; the second publish drops "
     "the first"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "the session exists before the run, so every commit takes the locked "
     "path"},
    {"generated",
     kControlledOnly,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "two threads' first commits to one session overlap"},
};

// checkpoint/sharded: fixed and fast.
constexpr ExpectationRow kSharded[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "shard and session locks"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "find-or-create under the shard lock"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "the index is copied under the session lock"},
    {"generated", kControlledOnly, kClean, kClean, "shard and session locks"},
};

// checkpoint/stale_cas: a CAS retry that keeps an id from the stale top.
constexpr ExpectationRow kStaleCas[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "one commit per session: no two commits push onto one stack"},
    {"same_session_first_commit",
     kBoth,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "a commit loads the top, another pushes, and the first CAS retries "
     "onto the new top with the id just taken"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "one committer: its CAS never fails"},
    {"generated",
     kControlledOnly,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "two threads' commits to one session meet between the load and the "
     "CAS"},
};

// checkpoint/lock_free: Treiber stacks, the id recomputed on every retry.
constexpr ExpectationRow kLockFree[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "release pushes, acquire loads"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "a failed CAS recomputes the id from the new top"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "the reader walks immutable nodes reached by acquire loads"},
    {"generated", kControlledOnly, kClean, kClean,
     "a failed CAS recomputes the id from the new top"},
};

constexpr ModeList kStressOnly = {Mode::kStress};

// checkpoint/seqlock_unfenced: the writer's odd sequence store unfenced; a
// wrong index, no race. Controlled mode runs it with the memory-model mode.
constexpr ExpectationRow kSeqlockUnfenced[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "one commit per session, read back after the joins"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "commits serialize on the table's mutex; reads come after the joins"},
    {"index_reader_vs_committer", kStressOnly, kClean, kClean,
     "x86 keeps stores in order (TSO): no run shows the count before the odd "
     "sequence number"},
    {"index_reader_vs_committer",
     kControlledOnly,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "the reader sees the new count, reads the slot before its id and an old "
     "even sequence number after its copy"},
    {"generated",
     kControlledOnly,
     {kNotLinearizable, kInvariantViolation},
     kFallout,
     "an index read meets a commit to the same session"},
};

// checkpoint/seqlock: the writer fences after its odd sequence store.
constexpr ExpectationRow kSeqlock[] = {
    {"seed_concurrent_sessions", kBoth, kClean, kClean,
     "one commit per session, read back after the joins"},
    {"same_session_first_commit", kBoth, kClean, kClean,
     "commits serialize on the table's mutex"},
    {"index_reader_vs_committer", kBoth, kClean, kClean,
     "a copy that saw a store after the fence sees the odd number and "
     "retries"},
    {"generated", kControlledOnly, kClean, kClean,
     "fences order the sequence number around the data"},
};

// state/unlock_during_iteration: the seed bug.
constexpr ExpectationRow kUnlockDuringIteration[] = {
    {"seed_slow_reader",
     kBoth,
     {kNotLinearizable, kInvariantViolation, kDataRace,
      kMapIterationDuringWrite},
     kFallout + KindList{kUseAfterFree},
     "inserts rehash the map under the paused iterator; the yielded value is "
     "read unlocked"},
    {"erase_during_iteration",
     kBoth,
     {kUseAfterFree, kDataRace, kNotLinearizable, kInvariantViolation,
      kMapIterationDuringWrite},
     kFallout,
     "erase frees the node the paused iterator stands on"},
    {"reentrant_yield",
     kBoth,
     {kNotLinearizable, kInvariantViolation, kMapIterationDuringWrite},
     kFallout + KindList{kUseAfterFree},
     "the callback's inserts rehash the map under the iterator"},
    {"generated",
     kControlledOnly,
     {kNotLinearizable, kInvariantViolation, kDataRace, kUseAfterFree,
      kMapIterationDuringWrite},
     kFallout,
     "an iteration pauses while another thread sets or erases keys"},
};

// state/snapshot: the seed's fix.
constexpr ExpectationRow kSnapshot[] = {
    {"seed_slow_reader", kBoth, kClean, kClean, "iterates a private copy"},
    {"erase_during_iteration", kBoth, kClean, kClean,
     "iterates a private copy"},
    {"reentrant_yield", kBoth, kClean, kClean,
     "no lock is held during the callback"},
    {"generated", kControlledOnly, kClean, kClean, "iterates a private copy"},
};

// state/hold_lock: consistent, but not re-entrant.
constexpr ExpectationRow kHoldLock[] = {
    {"seed_slow_reader", kBoth, kClean, kClean, "writers wait for the reader"},
    {"erase_during_iteration", kBoth, kClean, kClean,
     "writers wait for the reader"},
    {"reentrant_yield",
     kBoth,
     {kDeadlock},
     kFallout,
     "set() from the callback needs the write lock its own thread holds "
     "shared"},
    {"generated", kControlledOnly, kClean, kClean,
     "generated callbacks never write, so holding the lock is safe"},
};

// state/copy_on_write: readers never block.
constexpr ExpectationRow kCopyOnWrite[] = {
    {"seed_slow_reader", kBoth, kClean, kClean,
     "iterates an immutable snapshot"},
    {"erase_during_iteration", kBoth, kClean, kClean,
     "iterates an immutable snapshot"},
    {"reentrant_yield", kBoth, kClean, kClean,
     "no lock is held during the callback"},
    {"generated", kControlledOnly, kClean, kClean,
     "iterates an immutable snapshot"},
};

}  // namespace

const std::vector<SubjectEntry<checkpoint::CheckpointStore>>&
checkpoint_subjects() {
  static const auto* entries = new std::vector<
      SubjectEntry<checkpoint::CheckpointStore>>{
      {"unsynchronized", "subjects/checkpoint/unsynchronized.cc", true,
       "no lock at all: concurrent map writes (the seed bug)",
       checkpoint::make_unsynchronized, kUnsynchronized},
      {"mutex", "subjects/checkpoint/mutex.cc", false,
       "one mutex around every method (the seed's fix)", checkpoint::make_mutex,
       kMutex},
      {"escaping_index", "subjects/checkpoint/escaping_index.cc", true,
       "locked, but retrieve_index returns a view read after the lock is gone",
       checkpoint::make_escaping_index, kEscapingIndex},
      {"split_lock", "subjects/checkpoint/split_lock.cc", true,
       "check-then-act: creates a missing session outside the lock, loses "
       "commits",
       checkpoint::make_split_lock, kSplitLock},
      {"sharded", "subjects/checkpoint/sharded.cc", false,
       "sharded session map with a lock per session", checkpoint::make_sharded,
       kSharded},
      {"stale_cas", "subjects/checkpoint/stale_cas.cc", true,
       "lock-free, but a CAS retry keeps the id computed from the stale top: "
       "two commits share an id",
       checkpoint::make_stale_cas, kStaleCas},
      {"lock_free", "subjects/checkpoint/lock_free.cc", false,
       "Treiber stacks: a failed CAS recomputes the id from the new top",
       checkpoint::make_lock_free, kLockFree},
      {"seqlock_unfenced", "subjects/checkpoint/seqlock_unfenced.cc", true,
       "a sequence lock whose writer does not fence its odd store: a torn "
       "index, every access atomic",
       checkpoint::make_seqlock_unfenced, kSeqlockUnfenced,
       /*memory_model=*/true},
      {"seqlock", "subjects/checkpoint/seqlock.cc", false,
       "a sequence lock with the writer's release fence",
       checkpoint::make_seqlock, kSeqlock, /*memory_model=*/true},
  };
  return *entries;
}

const std::vector<SubjectEntry<state::StateStore>>& state_subjects() {
  static const auto* entries = new std::vector<SubjectEntry<state::StateStore>>{
      {"unlock_during_iteration", "subjects/state/unlock_during_iteration.cc",
       true, "holds an iterator across unlock/yield/relock (the seed bug)",
       state::make_unlock_during_iteration, kUnlockDuringIteration},
      {"snapshot", "subjects/state/snapshot.cc", false,
       "copies under the read lock, iterates the copy (the seed's fix)",
       state::make_snapshot, kSnapshot},
      {"hold_lock", "subjects/state/hold_lock.cc", false,
       "holds the read lock for the whole iteration; a writing callback "
       "deadlocks",
       state::make_hold_lock, kHoldLock},
      {"copy_on_write", "subjects/state/copy_on_write.cc", false,
       "immutable snapshots swapped by writers; readers never block",
       state::make_copy_on_write, kCopyOnWrite},
  };
  return *entries;
}

}  // namespace racelab
