// The expectation table of the built-in catalog. Every subject x scenario of a
// family has a row; the gate fails on a missing row.
#include "expectations.h"

namespace racelab {
namespace {

// One rule for every buggy case: a store the bug has corrupted may go on to
// crash or to hang (a rehashed map whose iterator loops forever), so `crash`
// and `timeout` are allowed beside the kind that catches it, in every row that
// catches something, and nowhere else. A fixed store that crashes or hangs is
// always a mismatch. Rows list only the further consequences of their bug.
#define RACELAB_HANG_OR_CRASH "crash,timeout"

// A race on a container may also return nonsense or touch freed memory.
constexpr const char* kRaceFallout = RACELAB_HANG_OR_CRASH
    ",not_linearizable,use_after_free,concurrent_map_write";
constexpr const char* kBoth = "stress,controlled";

}  // namespace

const std::vector<ExpectationRow>& expectation_table() {
  static const auto* table = new std::vector<ExpectationRow>{
      // checkpoint/unsynchronized: no lock at all.
      {"checkpoint/unsynchronized", "seed_concurrent_sessions", kBoth,
       "data_race", kRaceFallout,
       "first commits of 64 sessions insert into one unlocked map"},
      {"checkpoint/unsynchronized", "same_session_first_commit", kBoth,
       "data_race", kRaceFallout,
       "8 threads' unlocked commits write the session map and one session's "
       "vector"},
      {"checkpoint/unsynchronized", "index_reader_vs_committer", kBoth,
       "data_race", kRaceFallout,
       "unlocked push_back while the index is copied"},
      // checkpoint/mutex: the seed's fix.
      {"checkpoint/mutex", "seed_concurrent_sessions", kBoth, "", "",
       "every method holds the lock"},
      {"checkpoint/mutex", "same_session_first_commit", kBoth, "", "",
       "every method holds the lock"},
      {"checkpoint/mutex", "index_reader_vs_committer", kBoth, "", "",
       "the index is copied under the lock"},
      // checkpoint/escaping_index: the view outlives the lock.
      {"checkpoint/escaping_index", "seed_concurrent_sessions", kBoth, "", "",
       "each thread reads only its own session's index, which nobody writes "
       "then"},
      {"checkpoint/escaping_index", "same_session_first_commit", kBoth, "", "",
       "no index is read while commits run"},
      {"checkpoint/escaping_index", "index_reader_vs_committer", kBoth,
       "data_race,use_after_free", RACELAB_HANG_OR_CRASH ",not_linearizable",
       "the reader ranges over the live vector while commits push_back (and "
       "reallocate) it"},
      // checkpoint/split_lock: check-then-act, no data race.
      {"checkpoint/split_lock", "seed_concurrent_sessions", kBoth, "", "",
       "one first commit per session: the check-then-act window has no "
       "competitor"},
      {"checkpoint/split_lock", "same_session_first_commit", kBoth,
       "not_linearizable", RACELAB_HANG_OR_CRASH,
       "two first commits both create the session; the second publish drops "
       "the first"},
      {"checkpoint/split_lock", "index_reader_vs_committer", kBoth, "", "",
       "the session exists before the run, so every commit takes the locked "
       "path"},
      // checkpoint/sharded: fixed and fast.
      {"checkpoint/sharded", "seed_concurrent_sessions", kBoth, "", "",
       "shard and session locks"},
      {"checkpoint/sharded", "same_session_first_commit", kBoth, "", "",
       "find-or-create under the shard lock"},
      {"checkpoint/sharded", "index_reader_vs_committer", kBoth, "", "",
       "the index is copied under the session lock"},

      // Generated programs (controlled mode: a new program for every schedule).
      {"checkpoint/unsynchronized", "generated", "controlled", "data_race",
       kRaceFallout, "any two threads write the unlocked session map"},
      {"checkpoint/mutex", "generated", "controlled", "", "",
       "every method holds the lock"},
      {"checkpoint/escaping_index", "generated", "controlled", "data_race",
       RACELAB_HANG_OR_CRASH ",use_after_free,not_linearizable",
       "an index read pauses while another thread commits to the same session"},
      {"checkpoint/split_lock", "generated", "controlled", "not_linearizable",
       RACELAB_HANG_OR_CRASH,
       "two threads' first commits to one session overlap"},
      {"checkpoint/sharded", "generated", "controlled", "", "",
       "shard and session locks"},

      // state/unlock_during_iteration: the seed bug.
      {"state/unlock_during_iteration", "seed_slow_reader", kBoth,
       "not_linearizable,data_race,map_iteration_during_write",
       RACELAB_HANG_OR_CRASH ",use_after_free",
       "inserts rehash the map under the paused iterator; the yielded value is "
       "read unlocked"},
      {"state/unlock_during_iteration", "erase_during_iteration", kBoth,
       "use_after_free,data_race,not_linearizable,map_iteration_during_write",
       RACELAB_HANG_OR_CRASH,
       "erase frees the node the paused iterator stands on"},
      {"state/unlock_during_iteration", "reentrant_yield", kBoth,
       "not_linearizable,map_iteration_during_write",
       RACELAB_HANG_OR_CRASH ",use_after_free",
       "the callback's inserts rehash the map under the iterator"},
      // state/snapshot: the seed's fix.
      {"state/snapshot", "seed_slow_reader", kBoth, "", "",
       "iterates a private copy"},
      {"state/snapshot", "erase_during_iteration", kBoth, "", "",
       "iterates a private copy"},
      {"state/snapshot", "reentrant_yield", kBoth, "", "",
       "no lock is held during the callback"},
      // state/hold_lock: consistent, but not re-entrant.
      {"state/hold_lock", "seed_slow_reader", kBoth, "", "",
       "writers wait for the reader"},
      {"state/hold_lock", "erase_during_iteration", kBoth, "", "",
       "writers wait for the reader"},
      {"state/hold_lock", "reentrant_yield", kBoth, "deadlock",
       RACELAB_HANG_OR_CRASH,
       "set() from the callback needs the write lock its own thread holds "
       "shared"},
      // state/copy_on_write: readers never block.
      {"state/copy_on_write", "seed_slow_reader", kBoth, "", "",
       "iterates an immutable snapshot"},
      {"state/copy_on_write", "erase_during_iteration", kBoth, "", "",
       "iterates an immutable snapshot"},
      {"state/copy_on_write", "reentrant_yield", kBoth, "", "",
       "no lock is held during the callback"},
      // Generated programs.
      {"state/unlock_during_iteration", "generated", "controlled",
       "not_linearizable,data_race,use_after_free,map_iteration_during_write",
       RACELAB_HANG_OR_CRASH,
       "an iteration pauses while another thread sets or erases keys"},
      {"state/snapshot", "generated", "controlled", "", "",
       "iterates a private copy"},
      {"state/hold_lock", "generated", "controlled", "", "",
       "generated callbacks never write, so holding the lock is safe"},
      {"state/copy_on_write", "generated", "controlled", "", "",
       "iterates an immutable snapshot"},
  };
  return *table;
}

#undef RACELAB_HANG_OR_CRASH

}  // namespace racelab
