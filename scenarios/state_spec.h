// The state family declared as a racelab::Spec (racelab/spec.h): its
// operations on a StateStore, the argument and result types that read and
// write them in traces and schedule files, its sequential model (a map), its
// scenarios and the invariants every state run must keep (an all() never
// yields a key twice, yields only entries that were really set, and yields
// every entry that stayed in the map for its whole duration).
//
// all() is linearizable when what it yielded equals the map's whole contents
// at one point inside its interval (or, when it stopped early, is a subset of
// one such state of the right size).
#ifndef RACELAB_SCENARIOS_STATE_SPEC_H_
#define RACELAB_SCENARIOS_STATE_SPEC_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "racelab/persistent_map.h"
#include "racelab/spec.h"
#include "state/state_store.h"

namespace racelab::state {

// How all() iterates: pause at each entry (a slow reader); stop after this
// many entries (0: never); from the callback, set key+"'" to the value for
// every yielded key that has no "'" yet (a callback that writes to the
// state, nested calls). Written as flags: "all()", "all(pause,stop=2,write)".
struct AllFlags {
  bool pause_each = false;
  int stop_after = 0;
  bool write_back = false;
  bool operator==(const AllFlags&) const = default;
};
std::string to_string(const AllFlags& flags);
struct AllFlagSets {
  static constexpr bool kRestOfArguments = true;
  using value_type = AllFlags;
  AllFlags generate(Choices& c) const;
  std::optional<AllFlags> parse(std::string_view text) const;
};

// What all() yielded, in order.
struct Entries {
  std::vector<std::pair<std::string, std::string>> items;
  bool operator==(const Entries&) const = default;
};
std::string to_string(const Entries& entries);  // "{k0=0,k1=1}", 8 shown

// The keys of what an all() yielded, sorted, on the stack for the usual few:
// the model and the invariants look at every all() of every schedule.
using SortedKeys = absl::InlinedVector<std::string_view, 16>;
SortedKeys sorted_keys(
    const std::vector<std::pair<std::string, std::string>>& items);

// The sequential model: the map.
class MapModel {
 public:
  void set(const std::string& key, const std::string& value);
  std::optional<std::string> get(const std::string& key) const;
  bool erase(const std::string& key);
  // Whether an all() with `flags` may have yielded `entries` in this state.
  bool may_yield(const AllFlags& flags, const Entries& entries) const;
  bool operator==(const MapModel&) const = default;
  std::size_t hash() const { return entries_.hash(); }  // equal maps, equal
  friend std::string to_string(const MapModel& model);  // "{k0=0, k1=1}"

 private:
  // Persistent: the search keeps a copy of the model at every step.
  PersistentMap<std::string, std::string> entries_;
};

using StateSpec = Spec<StateStore, MapModel>;

// Operations set(key,value), get(key), erase(key) and all(flags); the
// scenarios seed_slow_reader, erase_during_iteration, reentrant_yield and
// generated. Stores come from .make(factory) (StateStore is abstract).
StateSpec state_spec();

}  // namespace racelab::state

#endif  // RACELAB_SCENARIOS_STATE_SPEC_H_
