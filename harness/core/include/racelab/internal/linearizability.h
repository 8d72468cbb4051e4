// Linearizability checker: decides whether a recorded concurrent history of
// operations on one object can be explained by some sequential execution of
// the object's model that respects real-time order, and when it cannot, says
// why in one paragraph.
//
// The search is the one Porcupine and Knossos implement ("just-in-time
// linearization"): Wing & Gong's depth-first search over the operations that
// may take effect next, with Lowe's memoization of every configuration
// (the set of operations already linearized, the model state) already explored.
// Before searching, it tries one order: the operations sorted by where they
// took effect when the recorder says (Operation::effect_order: under a
// controlled scheduler, the step of an operation's last lock or atomic), else
// by their return. Checking it costs one model step per operation, with no
// configuration stored or hashed; when it does not fit, or does not respect
// real time, the search decides as if it had not been tried.
// It is a template over the model, and stays in this header on purpose: the
// search copies, hashes and compares M::State values and calls M::step in its
// inner loop, and behind a non-template interface each of those would become
// an indirect call on a heap-allocated, type-erased state.
//
// Usage:
//   std::vector<racelab::Operation<MyModel>> history = ...;  // recorded
//   racelab::LinearizabilityResult result =
//       racelab::check_linearizable<MyModel>(history, MyModel::initial());
//   if (result.is_violation()) report(result.explanation);
//   else if (result.exhausted_budget) ...  // unknown: never a finding
//
// Time. Each operation has a call time and a return time, call < ret. An
// operation A precedes B (A must take effect before B) exactly when
// A.ret < B.call. Equal timestamps order nothing: when A.ret == B.call the two
// operations count as concurrent, which can only hide a violation, never
// invent one. A recorder should therefore take timestamps from one strictly
// increasing clock (a global atomic event counter, or the controlled
// scheduler's step count). Operations of one thread must be sequential by the
// same rule, each returning strictly before the next is called; a history that
// breaks this, or has an operation with ret <= call, is malformed and
// check_linearizable throws std::invalid_argument.
#ifndef RACELAB_LINEARIZABILITY_H_
#define RACELAB_LINEARIZABILITY_H_

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "racelab/internal/progress.h"

namespace racelab {

// The sequential specification of one family, as a set of static functions.
//
//   M::State    a value of the object: copyable, equality-comparable, hashed
//               by M::hash(state).
//   M::Input    what an operation was asked to do (operation and arguments).
//   M::Output   what it returned.
//   M::step(state, input, output, &next)
//               true when applying `input` in `state` may return `output`;
//               then it must assign the resulting state to *next (which holds
//               an unspecified value on entry). A nondeterministic or partial
//               specification (an iteration stopped early may return any
//               subset) is expressed here: the checker only calls step().
//   M::describe(input, output)   e.g. "commit(s1, \"p\") -> 0"
//   M::describe(state)           e.g. "{k0=0, k1=1}"
//
// Optionally, `static constexpr std::string_view kObjectName = "map";` names
// the object in explanations ("every state the map could be in ...").
//
// Optionally, a model whose states are costly to copy checks a whole order on
// one object, in place:
//   static size_t fitting_prefix(const State& initial,
//                                std::span<const Operation<M>> history,
//                                std::span<const size_t> order);
// returns how many operations of `order` (indexes into `history`), applied
// one after another from `initial`, return what they returned: order.size()
// when all do. Without it the checker steps through copies of M::State.
template <class M>
concept SequentialModel = std::copyable<typename M::State> &&
    std::equality_comparable<typename M::State> &&
    requires(const typename M::State& state, const typename M::Input& input,
             const typename M::Output& output, typename M::State* next) {
  { M::hash(state) } -> std::convertible_to<std::size_t>;
  { M::step(state, input, output, next) } -> std::convertible_to<bool>;
  { M::describe(input, output) } -> std::convertible_to<std::string>;
  { M::describe(state) } -> std::convertible_to<std::string>;
};

// A model of an object made of independent parts (the sessions of a
// checkpoint manager, the keys of a map whose operations each touch one
// key) can say so, and the history is then checked one part at a time:
//
//   static std::string partition(const Input& input);  // "s1"
//   static constexpr const char* kPartitionName = "session";  // optional
//
// M::State is then the state of one part, and M::step sees only the
// operations of that part. Linearizability is local (Herlihy & Wing): the
// whole history is linearizable exactly when every part's is, so the split
// loses nothing, and it turns one search over all operations into several
// small ones. The key is a string or an integer; kPartitionName names it in
// findings ("session 's1': thread 2: ...").
template <class M>
concept PartitionedModel = SequentialModel<M> &&
    requires(const typename M::Input& input) {
  M::partition(input);
  requires std::totally_ordered<
      std::remove_cvref_t<decltype(M::partition(input))>>;
  requires std::convertible_to<decltype(M::partition(input)),
                               std::string_view> ||
      std::integral<std::remove_cvref_t<decltype(M::partition(input))>>;
};

// One completed operation of a history.
template <class M>
struct Operation {
  int thread = 0;     // the logical thread that ran it
  uint64_t call = 0;  // time of the call; see "Time" above
  uint64_t ret = 0;   // time of the return; call < ret
  typename M::Input input{};
  typename M::Output output{};
  // Optional: where the operation took effect among the others (a step of
  // the controlled scheduler); 0 when unknown. When every operation has one,
  // the order they give is the first the checker tries; it is never trusted
  // beyond that (see check_linearizable).
  uint64_t effect_order = 0;
};

// A model that checks a whole order in place (see SequentialModel).
template <class M>
concept FitsInPlace = requires(const typename M::State& initial,
                               std::span<const Operation<M>> history,
                               std::span<const size_t> order) {
  { M::fitting_prefix(initial, history, order) } -> std::convertible_to<size_t>;
};

// The verdict of check_linearizable.
//
// Exactly one of three outcomes:
//   linearizable                    linearizable, `order` is a witness.
//   !linearizable && !exhausted     a violation: `explanation` says why.
//   exhausted_budget                unknown: the search hit max_steps before
//                                   deciding. Never report this as a finding.
struct LinearizabilityResult {
  bool linearizable = false;
  bool exhausted_budget = false;
  // Empty when linearizable. On a violation, one paragraph naming the
  // operation that has no valid place and the states it could have seen; when
  // the budget ran out, a sentence starting with "unknown:".
  std::string explanation;
  // Indexes into the history. When linearizable: one valid linearization.
  // Otherwise: the longest linearizable prefix the search found (useful to
  // draw what did fit before the violation).
  std::vector<size_t> order;
  // On a violation: the index of the operation the explanation names.
  std::optional<size_t> stuck_operation;
  // Model steps taken: those of the first guess (see the top of this file),
  // then the search's (calls of M::step while searching).
  size_t steps = 0;

  [[nodiscard]] bool is_violation() const {
    return !linearizable && !exhausted_budget;
  }
};

// The default cap on model steps. A linearizable history of a few hundred
// operations needs a few times its length; the cap matters only for
// pathological histories (many long, mutually concurrent operations).
inline constexpr size_t kDefaultLinearizabilityMaxSteps = 1'000'000;

namespace linearizability_internal {

// A mixing function (the splitmix64 finalizer) for hash combination.
inline uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// "a, b, c and 2 more" with at most `cap` items written out.
inline std::string join_capped(const std::vector<std::string>& items,
                               size_t cap) {
  std::string text;
  const size_t shown = std::min(items.size(), cap);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) text += ", ";
    text += items[i];
  }
  if (items.size() > shown) {
    text += " and " + std::to_string(items.size() - shown) + " more";
  }
  return text;
}

template <class M>
std::string object_name() {
  if constexpr (requires { M::kObjectName; }) {
    return std::string(std::string_view(M::kObjectName));
  } else {
    return "object";
  }
}

// "thread 1: get(k0) -> 0 (interval 4..9)"
template <SequentialModel M>
std::string describe_operation(const Operation<M>& op) {
  return "thread " + std::to_string(op.thread) + ": " +
         std::string(M::describe(op.input, op.output)) + " (interval " +
         std::to_string(op.call) + ".." + std::to_string(op.ret) + ")";
}

// Throws std::invalid_argument when an operation returns no later than it is
// called, or two operations of one thread are not strictly sequential.
template <SequentialModel M>
void validate_history(std::span<const Operation<M>> history) {
  for (size_t i = 0; i < history.size(); ++i) {
    if (history[i].ret <= history[i].call) {
      throw std::invalid_argument(
          "malformed history: operation #" + std::to_string(i) + " (" +
          describe_operation(history[i]) +
          ") does not return after its call; every operation needs "
          "call < ret");
    }
  }
  std::vector<size_t> by_thread(history.size());
  std::iota(by_thread.begin(), by_thread.end(), size_t{0});
  std::sort(by_thread.begin(), by_thread.end(), [&](size_t a, size_t b) {
    if (history[a].thread != history[b].thread) {
      return history[a].thread < history[b].thread;
    }
    if (history[a].call != history[b].call) {
      return history[a].call < history[b].call;
    }
    return a < b;
  });
  for (size_t i = 1; i < by_thread.size(); ++i) {
    const size_t earlier = by_thread[i - 1];
    const size_t later = by_thread[i];
    if (history[earlier].thread != history[later].thread) continue;
    if (history[earlier].ret >= history[later].call) {
      throw std::invalid_argument(
          "malformed history: operations #" + std::to_string(earlier) + " (" +
          describe_operation(history[earlier]) + ") and #" +
          std::to_string(later) + " (" + describe_operation(history[later]) +
          ") of the same thread overlap; one thread's operations must be "
          "sequential, each returning strictly before the next is called");
    }
  }
}

// Every configuration the search has reached: a set of linearized operations
// (a bitset) and a model state, in discovery order, with a hash index on top.
// Lowe's memoization: a configuration seen once never needs exploring again.
template <SequentialModel M>
class ConfigurationTable {
 public:
  using State = typename M::State;

  explicit ConfigurationTable(size_t words) : words_(words), slots_(64, 0) {}

  [[nodiscard]] size_t size() const { return states_.size(); }
  [[nodiscard]] const State& state(size_t index) const {
    return states_[index];
  }
  [[nodiscard]] const uint64_t* bits(size_t index) const {
    return bits_.data() + index * words_;
  }
  [[nodiscard]] bool contains_operation(size_t index, size_t op) const {
    return (bits(index)[op / 64] >> (op % 64)) & 1U;
  }

  // How many operations configuration `index` has linearized.
  [[nodiscard]] size_t operation_count(size_t index) const {
    size_t count = 0;
    for (size_t word = 0; word < words_; ++word) {
      count += static_cast<size_t>(std::popcount(bits(index)[word]));
    }
    return count;
  }

  // Adds (bits, state) unless present. Moves from `state` only when it adds.
  // Returns the configuration's index and whether it was added.
  std::pair<size_t, bool> insert(const uint64_t* bits, State& state,
                                 uint64_t hash) {
    size_t mask = slots_.size() - 1;
    for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const size_t stored = slots_[slot];
      if (stored == 0) break;
      const size_t index = stored - 1;
      if (hashes_[index] == hash &&
          std::equal(bits, bits + words_, this->bits(index)) &&
          states_[index] == state) {
        return {index, false};
      }
    }
    const size_t index = states_.size();
    bits_.insert(bits_.end(), bits, bits + words_);
    states_.push_back(std::move(state));
    hashes_.push_back(hash);
    if (2 * states_.size() > slots_.size()) {
      rehash(2 * slots_.size());
    } else {
      place(index);
    }
    return {index, true};
  }

 private:
  void place(size_t index) {
    const size_t mask = slots_.size() - 1;
    size_t slot = hashes_[index] & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = index + 1;
  }

  void rehash(size_t slot_count) {
    slots_.assign(slot_count, 0);
    for (size_t index = 0; index < states_.size(); ++index) place(index);
  }

  size_t words_;
  std::vector<uint64_t> bits_;  // words_ per configuration
  std::vector<State> states_;
  std::vector<uint64_t> hashes_;
  std::vector<size_t> slots_;  // 0 = empty, otherwise index + 1
};

// One run of the search over one history.
template <SequentialModel M>
class LinearizabilitySearch {
 public:
  using State = typename M::State;

  // `steps_taken` of the budget `max_steps` were spent before the search.
  LinearizabilitySearch(std::span<const Operation<M>> history, State initial,
                        size_t max_steps, size_t steps_taken = 0)
      : history_(history),
        operation_count_(history.size()),
        words_(history.size() / 64 + 1),
        max_steps_(max_steps),
        steps_(steps_taken),
        table_(words_),
        current_bits_(words_, 0),
        scratch_(initial) {
    build_entry_list();
    // Per-operation hash keys, so the hash of the linearized set is updated
    // in O(1) per step (Zobrist hashing).
    operation_keys_.resize(operation_count_);
    for (size_t op = 0; op < operation_count_; ++op) {
      operation_keys_[op] = mix(op + 0x9e3779b97f4a7c15ULL);
    }
    table_.insert(current_bits_.data(), initial, hash_of(initial));
  }

  LinearizabilityResult run() {
    size_t current = 0;  // the configuration the search stands in
    int entry = next_[kHead];
    while (next_[kHead] != kNone) {
      if (is_call_[entry]) {
        const size_t op = entry_operation_[entry];
        if (steps_ >= max_steps_) return unknown();
        // A long search is a run that progresses, not one that hangs.
        ++steps_;
        note_progress();
        const Operation<M>& operation = history_[op];
        if (M::step(table_.state(current), operation.input, operation.output,
                    &scratch_)) {
          toggle(op);
          const auto [next, added] =
              table_.insert(current_bits_.data(), scratch_, hash_of(scratch_));
          if (added) {
            frames_.push_back({entry, current});
            current = next;
            lift(entry);
            note_depth(current);
            entry = next_[kHead];
            continue;
          }
          toggle(op);  // explored before: a known dead end
        }
        entry = next_[entry];
      } else {
        // The earliest pending return: its operation had to take effect
        // before now, and no choice at this level made that possible.
        if (frames_.empty()) return violation();
        const Frame frame = frames_.back();
        frames_.pop_back();
        toggle(entry_operation_[frame.call_entry]);
        current = frame.configuration;
        unlift(frame.call_entry);
        entry = next_[frame.call_entry];
      }
    }
    LinearizabilityResult result;
    result.linearizable = true;
    result.steps = steps_;
    for (const Frame& frame : frames_) {
      result.order.push_back(entry_operation_[frame.call_entry]);
    }
    return result;
  }

 private:
  static constexpr int kHead = 0;
  static constexpr int kNone = -1;
  static constexpr size_t kStatesShown = 4;

  struct Frame {
    int call_entry;        // the call linearized at this level
    size_t configuration;  // the configuration before it
  };

  // The doubly linked list of call and return entries in time order (calls
  // before returns at equal times, so equal timestamps mean "concurrent"),
  // behind a head sentinel at index 0.
  void build_entry_list() {
    struct Event {
      uint64_t time;
      bool is_return;
      size_t op;
    };
    std::vector<Event> events;
    events.reserve(2 * operation_count_);
    for (size_t op = 0; op < operation_count_; ++op) {
      events.push_back({history_[op].call, false, op});
      events.push_back({history_[op].ret, true, op});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
      if (a.time != b.time) return a.time < b.time;
      if (a.is_return != b.is_return) return !a.is_return;
      return a.op < b.op;
    });
    const size_t entries = events.size() + 1;
    next_.assign(entries, kNone);
    prev_.assign(entries, kNone);
    is_call_.assign(entries, 0);
    entry_operation_.assign(entries, 0);
    match_.assign(entries, kNone);
    call_entry_.assign(operation_count_, kNone);
    return_entry_.assign(operation_count_, kNone);
    for (size_t i = 0; i < events.size(); ++i) {
      const int entry = static_cast<int>(i) + 1;
      prev_[entry] = entry - 1;
      next_[entry - 1] = entry;
      entry_operation_[entry] = events[i].op;
      is_call_[entry] = events[i].is_return ? 0 : 1;
      if (events[i].is_return) {
        return_entry_[events[i].op] = entry;
      } else {
        call_entry_[events[i].op] = entry;
      }
    }
    for (size_t op = 0; op < operation_count_; ++op) {
      match_[call_entry_[op]] = return_entry_[op];
    }
    operations_by_return_.resize(operation_count_);
    std::iota(operations_by_return_.begin(), operations_by_return_.end(),
              size_t{0});
    std::sort(operations_by_return_.begin(), operations_by_return_.end(),
              [&](size_t a, size_t b) {
                return return_entry_[a] < return_entry_[b];
              });
  }

  // Removes a call entry and its return from the list; unlift undoes it.
  void lift(int call) {
    next_[prev_[call]] = next_[call];
    if (next_[call] != kNone) prev_[next_[call]] = prev_[call];
    const int ret = match_[call];
    next_[prev_[ret]] = next_[ret];
    if (next_[ret] != kNone) prev_[next_[ret]] = prev_[ret];
  }

  void unlift(int call) {
    const int ret = match_[call];
    next_[prev_[ret]] = ret;
    if (next_[ret] != kNone) prev_[next_[ret]] = ret;
    next_[prev_[call]] = call;
    if (next_[call] != kNone) prev_[next_[call]] = call;
  }

  void toggle(size_t op) {
    current_bits_[op / 64] ^= uint64_t{1} << (op % 64);
    bits_hash_ ^= operation_keys_[op];
  }

  [[nodiscard]] uint64_t hash_of(const State& state) const {
    return mix(bits_hash_ ^
               (static_cast<uint64_t>(M::hash(state)) * 0x9e3779b97f4a7c15ULL));
  }

  void note_depth(size_t configuration) {
    if (frames_.size() <= longest_prefix_.size()) return;
    deepest_configuration_ = configuration;
    longest_prefix_.clear();
    for (const Frame& frame : frames_) {
      longest_prefix_.push_back(entry_operation_[frame.call_entry]);
    }
  }

  // The first operation, in return order, that configuration `index` has not
  // linearized; its return is the first entry left in the list there.
  [[nodiscard]] size_t first_pending_return(size_t index) const {
    for (size_t op : operations_by_return_) {
      if (!table_.contains_operation(index, op)) return op;
    }
    return operation_count_;
  }

  [[nodiscard]] LinearizabilityResult unknown() const {
    LinearizabilityResult result;
    result.exhausted_budget = true;
    result.steps = steps_;
    result.order = longest_prefix_;
    result.explanation =
        "unknown: the search stopped after its budget of " +
        std::to_string(max_steps_) + " steps without deciding, having " +
        "linearized at most " + std::to_string(longest_prefix_.size()) +
        " of the " + std::to_string(operation_count_) +
        " operations; this is not a finding (raise max_steps or shorten the "
        "history).";
    return result;
  }

  // The search failed everywhere. Blame the operation that blocks the
  // deepest configuration reached (the end of the longest linearizable
  // prefix): it is the first one whose return came before it could take
  // effect. Then list every state the object could be in while that
  // operation was pending, that is, every explored configuration in which
  // its call had happened and it was next in line, and whether the model
  // allows its result in that state. The search is exhaustive on failure, so
  // these are all the states consistent with the rest of the history.
  LinearizabilityResult violation() {
    const size_t stuck = first_pending_return(deepest_configuration_);
    const Operation<M>& operation = history_[stuck];

    std::vector<std::string> all_states;
    std::vector<std::string> fitting_states;
    std::unordered_map<size_t, std::vector<size_t>> seen;  // hash -> configs
    for (size_t index = 0; index < table_.size(); ++index) {
      if (table_.contains_operation(index, stuck)) continue;
      const size_t first = first_pending_return(index);
      if (call_entry_[stuck] > return_entry_[first]) continue;  // not called
      const State& state = table_.state(index);
      std::vector<size_t>& same_hash = seen[M::hash(state)];
      const bool duplicate = std::any_of(
          same_hash.begin(), same_hash.end(),
          [&](size_t other) { return table_.state(other) == state; });
      if (duplicate) continue;
      same_hash.push_back(index);
      std::string description = M::describe(state);
      if (M::step(state, operation.input, operation.output, &scratch_)) {
        fitting_states.push_back(description);
      }
      all_states.push_back(std::move(description));
    }

    // When it fits somewhere, name what then goes wrong: the operation that
    // blocks the deepest configuration which has it placed.
    std::string later_conflict;
    if (!fitting_states.empty()) {
      size_t deepest = table_.size();
      size_t deepest_count = 0;
      for (size_t index = 0; index < table_.size(); ++index) {
        if (!table_.contains_operation(index, stuck)) continue;
        const size_t count = table_.operation_count(index);
        if (deepest == table_.size() || count > deepest_count) {
          deepest = index;
          deepest_count = count;
        }
      }
      if (deepest < table_.size()) {
        later_conflict =
            describe_operation(history_[first_pending_return(deepest)]);
      }
    }

    const std::string object = object_name<M>();
    std::string text = describe_operation(operation) + " has no valid place: ";
    if (fitting_states.empty() && all_states.size() == 1) {
      text += "the only state the " + object +
              " could be in during its interval was " + all_states.front() +
              ", and the model does not allow that result there.";
    } else if (fitting_states.empty()) {
      text += "every state the " + object +
              " could be in during its interval was one of " +
              join_capped(all_states, kStatesShown) +
              "; the model allows that result in none of them.";
    } else {
      text += "during its interval the " + object + " could be in " +
              join_capped(all_states, kStatesShown) +
              "; the model allows that result only in " +
              join_capped(fitting_states, kStatesShown) +
              ", and every order that places it there gets stuck later";
      text += later_conflict.empty()
                  ? std::string(".")
                  : ", for example on " + later_conflict + ".";
    }
    text += " The longest linearizable prefix places " +
            std::to_string(longest_prefix_.size()) + " of the " +
            std::to_string(operation_count_) + " operations.";

    LinearizabilityResult result;
    result.steps = steps_;
    result.order = longest_prefix_;
    result.stuck_operation = stuck;
    result.explanation = std::move(text);
    return result;
  }

  std::span<const Operation<M>> history_;
  size_t operation_count_;
  size_t words_;
  size_t max_steps_;
  size_t steps_;

  // The entry list; index 0 is the head sentinel.
  std::vector<int> next_;
  std::vector<int> prev_;
  std::vector<char> is_call_;  // char, not bool: read in the hot loop
  std::vector<size_t> entry_operation_;
  std::vector<int> match_;         // call entry -> its return entry
  std::vector<int> call_entry_;    // operation -> its call entry
  std::vector<int> return_entry_;  // operation -> its return entry
  std::vector<size_t> operations_by_return_;

  ConfigurationTable<M> table_;
  std::vector<uint64_t> current_bits_;
  std::vector<uint64_t> operation_keys_;
  uint64_t bits_hash_ = 0;
  State scratch_;  // receives M::step's next state
  std::vector<Frame> frames_;

  size_t deepest_configuration_ = 0;
  std::vector<size_t> longest_prefix_;
};

// Whether no operation of `order` comes after one that returned before it
// was called.
template <SequentialModel M>
bool respects_real_time(std::span<const Operation<M>> history,
                        std::span<const size_t> order) {
  uint64_t earliest_return_after = UINT64_MAX;
  for (size_t i = order.size(); i-- > 0;) {
    const Operation<M>& op = history[order[i]];
    if (earliest_return_after < op.call) return false;
    earliest_return_after = std::min(earliest_return_after, op.ret);
  }
  return true;
}

// The first order to try: by effect_order when every operation has one and
// that order respects real time, else by return (which always does, since
// A.ret < B.call makes A.ret < B.ret). Ties go by return, then call, then
// index.
template <SequentialModel M>
std::vector<size_t> first_guess(std::span<const Operation<M>> history) {
  std::vector<size_t> order(history.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto by_return = [&](size_t a, size_t b) {
    if (history[a].ret != history[b].ret)
      return history[a].ret < history[b].ret;
    if (history[a].call != history[b].call) {
      return history[a].call < history[b].call;
    }
    return a < b;
  };
  const bool all_placed =
      std::all_of(history.begin(), history.end(),
                  [](const Operation<M>& op) { return op.effect_order != 0; });
  if (all_placed) {
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (history[a].effect_order != history[b].effect_order) {
        return history[a].effect_order < history[b].effect_order;
      }
      return by_return(a, b);
    });
    if (respects_real_time<M>(history, order)) return order;
  }
  std::sort(order.begin(), order.end(), by_return);
  return order;
}

// How many operations of `order`, applied one after another from `initial`,
// return what they returned.
template <SequentialModel M>
size_t fitting_prefix(const typename M::State& initial,
                      std::span<const Operation<M>> history,
                      std::span<const size_t> order) {
  if constexpr (FitsInPlace<M>) {
    return M::fitting_prefix(initial, history, order);
  } else {
    typename M::State state = initial;
    typename M::State next = initial;
    size_t fitted = 0;
    for (size_t op : order) {
      if (!M::step(state, history[op].input, history[op].output, &next)) break;
      std::swap(state, next);
      ++fitted;
    }
    return fitted;
  }
}

}  // namespace linearizability_internal

// Checks `history` against the sequential model M starting from `initial`.
// Throws std::invalid_argument on a malformed history (see "Time" above).
// The first guess (see the top of this file) is tried first when the budget
// covers it (one step per operation); when it fits, it is the result's
// `order`. The check stops after `max_steps` model steps in all and then
// reports exhausted_budget ("unknown"), never a violation. Deterministic: the
// same history always gives the same result and the same explanation text.
//
// M is not deduced from a std::vector; name it:
//   check_linearizable<MyModel>(history, MyModel::initial())
template <SequentialModel M>
[[nodiscard]] LinearizabilityResult check_linearizable(
    std::span<const Operation<M>> history, typename M::State initial,
    size_t max_steps = kDefaultLinearizabilityMaxSteps) {
  linearizability_internal::validate_history<M>(history);
  size_t steps_taken = 0;
  if (history.size() <= max_steps) {
    std::vector<size_t> order =
        linearizability_internal::first_guess<M>(history);
    const size_t fitted =
        linearizability_internal::fitting_prefix<M>(initial, history, order);
    note_progress();
    if (fitted == order.size()) {
      LinearizabilityResult result;
      result.linearizable = true;
      result.steps = order.size();
      result.order = std::move(order);
      return result;
    }
    steps_taken = fitted + 1;  // the last one did not fit
  }
  linearizability_internal::LinearizabilitySearch<M> search(
      history, std::move(initial), max_steps, steps_taken);
  return search.run();
}

}  // namespace racelab

#endif  // RACELAB_LINEARIZABILITY_H_
