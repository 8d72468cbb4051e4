// The invariants every state run must keep, over the calls of a finished run:
// an all() never yields a key twice, yields only entries that were really
// set, and yields every entry that stayed in the map for its whole duration.
//
// One implementation over a neutral view of a run's calls (StateCallView),
// read by both ways a state run is recorded: the spec's calls (state_spec.h
// registers no_key_twice, only_set_entries and no_stable_key_skipped) and the
// family's events (check_state_invariants in state_scenarios.h, which the
// family scenarios and the fuzz_state_* targets run). The finding texts are
// the same either way.
#ifndef RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
#define RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "racelab/spec.h"
#include "state_spec.h"

namespace racelab::state {

// One call of a finished run. The views point into the recorded history,
// which outlives them.
struct StateCallView {
  enum class Kind { kSet, kErase, kAll, kOther };
  Kind kind = Kind::kOther;
  int thread = 0;               // kSetupThread for setup calls
  std::string_view key, value;  // set: both; erase: the key
  // all(): what it yielded, and whether it ran to the end (no stop_after).
  const std::vector<std::pair<std::string, std::string>>* entries = nullptr;
  bool complete = false;
};

// Every (key, value) some set() of the run wrote.
using WrittenEntries =
    absl::flat_hash_set<std::pair<std::string_view, std::string_view>>;
WrittenEntries written_entries(std::span<const StateCallView> calls);
// The keys the setup put in the map that no operation of the run removes or
// changes: every complete all() must yield them.
std::vector<std::string_view> stable_keys(std::span<const StateCallView> calls);

// What the all() `call` broke, or "".
std::string keys_twice(const StateCallView& call);
std::string entries_never_set(const StateCallView& call,
                              const WrittenEntries& written);
std::string stable_keys_skipped(const StateCallView& call,
                                std::span<const std::string_view> stable);

// The spec's invariants: each returns what broke in the run, or "".
std::string no_key_twice(const Calls& calls);
std::string only_set_entries(const Calls& calls);
std::string no_stable_key_skipped(const Calls& calls);

// The keys as a finding shows them: sorted, comma-separated, the first eight
// and then how many there are in all.
std::string key_list(const std::set<std::string>& keys);

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_SPEC_INVARIANTS_H_
