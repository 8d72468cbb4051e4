// Tests of the linearizability checker (racelab/internal/linearizability.h)
// against three toy models defined here: a key-value map (set/get), a set with
// a snapshot operation all() that may stop early, and a commit counter whose
// commits return consecutive ids. Besides hand-written histories, random
// histories that are linearizable by construction must all pass, a mutated
// output must be caught, and small random histories are cross-checked against
// a brute-force search over all orders.
#include "racelab/internal/linearizability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace racelab {
namespace {

// ---------------------------------------------------------------------------
// Model 1: a map from small integer keys to integer values.

struct MapModel {
  static constexpr std::string_view kObjectName = "map";

  enum class Kind { kSet, kGet };
  struct Input {
    Kind kind = Kind::kGet;
    int key = 0;
    int value = 0;  // for set
  };
  using Output = std::optional<int>;  // get: the value or none; set: none
  using State = std::map<int, int>;

  static size_t hash(const State& state) {
    size_t h = state.size();
    for (const auto& [key, value] : state) {
      h = h * 1000003 + static_cast<size_t>(key) * 31 +
          static_cast<size_t>(value);
    }
    return h;
  }

  static bool step(const State& state, const Input& input, const Output& output,
                   State* next) {
    if (input.kind == Kind::kSet) {
      *next = state;
      (*next)[input.key] = input.value;
      return true;
    }
    const auto found = state.find(input.key);
    const Output actual =
        found == state.end() ? std::nullopt : std::optional<int>(found->second);
    if (actual != output) return false;
    *next = state;
    return true;
  }

  static std::string describe(const Input& input, const Output& output) {
    const std::string key = "k" + std::to_string(input.key);
    if (input.kind == Kind::kSet) {
      return "set(" + key + ", " + std::to_string(input.value) + ")";
    }
    return "get(" + key + ") -> " +
           (output ? std::to_string(*output) : std::string("none"));
  }

  static std::string describe(const State& state) {
    std::string text = "{";
    for (const auto& [key, value] : state) {
      if (text.size() > 1) text += ", ";
      text += "k" + std::to_string(key) + "=" + std::to_string(value);
    }
    return text + "}";
  }
};

using MapOperation = Operation<MapModel>;

MapOperation map_set(int thread, uint64_t call, uint64_t ret, int key,
                     int value) {
  return {thread, call, ret, {MapModel::Kind::kSet, key, value}, std::nullopt};
}

MapOperation map_get(int thread, uint64_t call, uint64_t ret, int key,
                     std::optional<int> result) {
  return {thread, call, ret, {MapModel::Kind::kGet, key, 0}, result};
}

LinearizabilityResult check_map(
    const std::vector<MapOperation>& history,
    size_t max_steps = kDefaultLinearizabilityMaxSteps) {
  return check_linearizable<MapModel>(history, MapModel::State{}, max_steps);
}

// ---------------------------------------------------------------------------
// Model 2: a set of keys with all(), which yields the contents; an all() that
// the caller stopped after n items may return any n distinct members.

struct SnapshotSetModel {
  static constexpr std::string_view kObjectName = "set";

  enum class Kind { kInsert, kErase, kAll };
  struct Input {
    Kind kind = Kind::kAll;
    int key = 0;                          // for insert and erase
    std::optional<size_t> stopped_after;  // for all(): stopped early
  };
  using Output = std::vector<int>;  // all(): the keys yielded, in order
  using State = std::set<int>;

  static size_t hash(const State& state) {
    size_t h = state.size();
    for (int key : state) h = h * 1000003 + static_cast<size_t>(key);
    return h;
  }

  static bool step(const State& state, const Input& input, const Output& output,
                   State* next) {
    switch (input.kind) {
      case Kind::kInsert:
        *next = state;
        next->insert(input.key);
        return true;
      case Kind::kErase:
        *next = state;
        next->erase(input.key);
        return true;
      case Kind::kAll: {
        const std::set<int> yielded(output.begin(), output.end());
        if (yielded.size() != output.size()) return false;  // a duplicate
        if (input.stopped_after) {
          if (output.size() != *input.stopped_after) return false;
          if (!std::includes(state.begin(), state.end(), yielded.begin(),
                             yielded.end())) {
            return false;
          }
        } else if (yielded != state) {
          return false;
        }
        *next = state;
        return true;
      }
    }
    return false;
  }

  static std::string keys(const std::vector<int>& sorted_keys) {
    std::string text = "{";
    for (size_t i = 0; i < sorted_keys.size(); ++i) {
      if (i > 0) text += ", ";
      text += "k" + std::to_string(sorted_keys[i]);
    }
    return text + "}";
  }

  static std::string describe(const Input& input, const Output& output) {
    switch (input.kind) {
      case Kind::kInsert:
        return "insert(k" + std::to_string(input.key) + ")";
      case Kind::kErase:
        return "erase(k" + std::to_string(input.key) + ")";
      case Kind::kAll: {
        std::vector<int> sorted = output;
        std::sort(sorted.begin(), sorted.end());
        const std::string call =
            input.stopped_after ? "all(stopped after " +
                                      std::to_string(*input.stopped_after) + ")"
                                : std::string("all()");
        return call + " -> " + keys(sorted);
      }
    }
    return "?";
  }

  static std::string describe(const State& state) {
    return keys(std::vector<int>(state.begin(), state.end()));
  }
};

using SetOperation = Operation<SnapshotSetModel>;

SetOperation set_insert(int thread, uint64_t call, uint64_t ret, int key) {
  return {thread, call, ret, {SnapshotSetModel::Kind::kInsert, key, {}}, {}};
}

SetOperation set_erase(int thread, uint64_t call, uint64_t ret, int key) {
  return {thread, call, ret, {SnapshotSetModel::Kind::kErase, key, {}}, {}};
}

SetOperation set_all(int thread, uint64_t call, uint64_t ret,
                     std::vector<int> keys,
                     std::optional<size_t> stopped_after = std::nullopt) {
  return {thread,
          call,
          ret,
          {SnapshotSetModel::Kind::kAll, 0, stopped_after},
          std::move(keys)};
}

LinearizabilityResult check_set(const std::vector<SetOperation>& history,
                                SnapshotSetModel::State initial = {}) {
  return check_linearizable<SnapshotSetModel>(history, std::move(initial));
}

// ---------------------------------------------------------------------------
// Model 3: commit(payload) returns the next id, 0, 1, 2, ...

struct CommitCounterModel {
  struct Input {
    std::string payload;
  };
  using Output = uint64_t;  // the id
  using State = uint64_t;   // the next id to hand out

  static size_t hash(const State& state) { return state; }

  static bool step(const State& state, const Input& /*input*/,
                   const Output& output, State* next) {
    if (output != state) return false;
    *next = state + 1;
    return true;
  }

  static std::string describe(const Input& input, const Output& output) {
    return "commit(\"" + input.payload + "\") -> " + std::to_string(output);
  }

  static std::string describe(const State& state) {
    return "{next id " + std::to_string(state) + "}";
  }
};

using CommitOperation = Operation<CommitCounterModel>;

CommitOperation commit(int thread, uint64_t call, uint64_t ret,
                       std::string payload, uint64_t id) {
  return {thread, call, ret, {std::move(payload)}, id};
}

static_assert(SequentialModel<MapModel>);
static_assert(SequentialModel<SnapshotSetModel>);
static_assert(SequentialModel<CommitCounterModel>);

// ---------------------------------------------------------------------------
// Helpers shared by the tests.

// True when `order` is a permutation of the history that respects real-time
// precedence and that the model accepts step by step from `initial`.
template <SequentialModel M>
::testing::AssertionResult is_valid_linearization(
    const std::vector<Operation<M>>& history, typename M::State initial,
    const std::vector<size_t>& order) {
  if (order.size() != history.size()) {
    return ::testing::AssertionFailure()
           << "order has " << order.size() << " of " << history.size()
           << " operations";
  }
  std::vector<bool> used(history.size(), false);
  for (size_t position = 0; position < order.size(); ++position) {
    const size_t op = order[position];
    if (op >= history.size() || used[op]) {
      return ::testing::AssertionFailure() << "order is not a permutation";
    }
    used[op] = true;
    for (size_t later = position + 1; later < order.size(); ++later) {
      if (history[order[later]].ret < history[op].call) {
        return ::testing::AssertionFailure()
               << "#" << order[later] << " precedes #" << op
               << " in real time but comes after it";
      }
    }
    typename M::State next = initial;
    if (!M::step(initial, history[op].input, history[op].output, &next)) {
      return ::testing::AssertionFailure()
             << "model rejects "
             << M::describe(history[op].input, history[op].output) << " in "
             << M::describe(initial);
    }
    initial = std::move(next);
  }
  return ::testing::AssertionSuccess();
}

// Exhaustive reference: is there any order of all operations that respects
// precedence and that the model accepts? Exponential; for tiny histories.
template <SequentialModel M>
bool brute_force_linearizable(const std::vector<Operation<M>>& history,
                              const typename M::State& state,
                              std::vector<bool>& used, size_t placed) {
  if (placed == history.size()) return true;
  for (size_t op = 0; op < history.size(); ++op) {
    if (used[op]) continue;
    // `op` may go next only if no other unplaced operation precedes it.
    bool minimal = true;
    for (size_t other = 0; other < history.size() && minimal; ++other) {
      if (!used[other] && other != op &&
          history[other].ret < history[op].call) {
        minimal = false;
      }
    }
    if (!minimal) continue;
    typename M::State next = state;
    if (!M::step(state, history[op].input, history[op].output, &next)) {
      continue;
    }
    used[op] = true;
    if (brute_force_linearizable(history, next, used, placed + 1)) return true;
    used[op] = false;
  }
  return false;
}

// Random histories that are linearizable by construction: each thread gets a
// random program, a random interleaving of the programs runs sequentially on
// a real object (`execute`), operation i of that run takes effect at time
// 10 * (i + 1), and each operation gets a random interval around its point
// that stays clear of its own thread's neighbours.
template <class M, class MakeInput, class Execute>
std::vector<Operation<M>> random_linearizable_history(std::mt19937_64& random,
                                                      int threads,
                                                      int operations_per_thread,
                                                      MakeInput make_input,
                                                      Execute execute) {
  std::vector<int> remaining(threads, operations_per_thread);
  std::vector<int> schedule;
  for (int left = threads * operations_per_thread; left > 0; --left) {
    int thread;
    do {
      thread = static_cast<int>(random() % threads);
    } while (remaining[thread] == 0);
    --remaining[thread];
    schedule.push_back(thread);
  }

  std::vector<Operation<M>> history;
  for (size_t i = 0; i < schedule.size(); ++i) {
    Operation<M> op;
    op.thread = schedule[i];
    op.input = make_input(random);
    op.output = execute(op.input);
    op.call = op.ret = 10 * (i + 1);  // the point; intervals come next
    history.push_back(std::move(op));
  }

  for (int thread = 0; thread < threads; ++thread) {
    uint64_t previous_return = 0;
    std::vector<size_t> mine;
    for (size_t i = 0; i < history.size(); ++i) {
      if (history[i].thread == thread) mine.push_back(i);
    }
    for (size_t j = 0; j < mine.size(); ++j) {
      Operation<M>& op = history[mine[j]];
      const uint64_t point = op.call;
      // call in [previous_return + 1, point - 1]
      op.call = previous_return + 1 + random() % (point - 1 - previous_return);
      // ret in [point + 1, next point - 2] (the next call needs room)
      const uint64_t last_return =
          j + 1 < mine.size() ? history[mine[j + 1]].call - 2 : point + 40;
      op.ret = point + 1 + random() % (last_return - point);
      previous_return = op.ret;
    }
  }
  return history;
}

std::vector<MapOperation> random_map_history(std::mt19937_64& random,
                                             int threads, int per_thread,
                                             int keys) {
  std::map<int, int> real;  // the real sequential object
  int next_value = 1;
  return random_linearizable_history<MapModel>(
      random, threads, per_thread,
      [&](std::mt19937_64& r) {
        MapModel::Input input;
        input.kind = r() % 2 == 0 ? MapModel::Kind::kSet : MapModel::Kind::kGet;
        input.key = static_cast<int>(r() % keys);
        input.value = next_value++;
        return input;
      },
      [&](const MapModel::Input& input) -> MapModel::Output {
        if (input.kind == MapModel::Kind::kSet) {
          real[input.key] = input.value;
          return std::nullopt;
        }
        const auto found = real.find(input.key);
        if (found == real.end()) return std::nullopt;
        return found->second;
      });
}

std::vector<SetOperation> random_set_history(std::mt19937_64& random,
                                             int threads, int per_thread) {
  std::set<int> real;
  return random_linearizable_history<SnapshotSetModel>(
      random, threads, per_thread,
      [](std::mt19937_64& r) {
        SnapshotSetModel::Input input;
        const int pick = static_cast<int>(r() % 5);
        input.kind = pick < 2   ? SnapshotSetModel::Kind::kInsert
                     : pick < 3 ? SnapshotSetModel::Kind::kErase
                                : SnapshotSetModel::Kind::kAll;
        input.key = static_cast<int>(r() % 5);
        if (input.kind == SnapshotSetModel::Kind::kAll && r() % 3 == 0) {
          input.stopped_after = r() % 3;  // resolved against the real size
        }
        return input;
      },
      [&](SnapshotSetModel::Input& input) -> SnapshotSetModel::Output {
        switch (input.kind) {
          case SnapshotSetModel::Kind::kInsert:
            real.insert(input.key);
            return {};
          case SnapshotSetModel::Kind::kErase:
            real.erase(input.key);
            return {};
          case SnapshotSetModel::Kind::kAll:
            break;
        }
        if (input.stopped_after) {
          input.stopped_after = std::min(*input.stopped_after, real.size());
        }
        std::vector<int> yielded;
        for (int key : real) {  // yields in the real set's order
          if (input.stopped_after && yielded.size() == *input.stopped_after) {
            break;
          }
          yielded.push_back(key);
        }
        return yielded;
      });
}

std::vector<CommitOperation> random_commit_history(std::mt19937_64& random,
                                                   int threads,
                                                   int per_thread) {
  uint64_t next_id = 0;
  return random_linearizable_history<CommitCounterModel>(
      random, threads, per_thread,
      [](std::mt19937_64& r) {
        return CommitCounterModel::Input{"p" + std::to_string(r() % 100)};
      },
      [&](const CommitCounterModel::Input&) { return next_id++; });
}

// ---------------------------------------------------------------------------
// 1. Map / register.

TEST(MapLinearizability, SequentialHistoryIsLinearizable) {
  const std::vector<MapOperation> history = {
      map_get(0, 1, 2, 0, std::nullopt),
      map_set(0, 3, 4, 0, 7),
      map_get(1, 5, 6, 0, 7),
      map_set(1, 7, 8, 1, 9),
      map_get(0, 9, 10, 1, 9),
  };
  const LinearizabilityResult result = check_map(history);
  EXPECT_TRUE(result.linearizable);
  EXPECT_FALSE(result.exhausted_budget);
  EXPECT_FALSE(result.is_violation());
  EXPECT_TRUE(result.explanation.empty());
  EXPECT_EQ(result.order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(MapLinearizability, EmptyHistoryIsLinearizable) {
  const LinearizabilityResult result = check_map({});
  EXPECT_TRUE(result.linearizable);
  EXPECT_TRUE(result.order.empty());
}

TEST(MapLinearizability, ReadOfAValueWrittenOnlyAfterTheReadReturnedIsFlagged) {
  const std::vector<MapOperation> history = {
      map_get(1, 1, 3, 0, 5),  // returns 5 before anyone writes 5
      map_set(0, 4, 6, 0, 5),
  };
  const LinearizabilityResult result = check_map(history);
  EXPECT_FALSE(result.linearizable);
  EXPECT_FALSE(result.exhausted_budget);
  EXPECT_TRUE(result.is_violation());
  EXPECT_EQ(result.stuck_operation, 0U);
  EXPECT_EQ(result.explanation,
            "thread 1: get(k0) -> 5 (interval 1..3) has no valid place: the "
            "only state the map could be in during its interval was {}, and "
            "the model does not allow that result there. The longest "
            "linearizable prefix places 0 of the 2 operations.");
}

TEST(MapLinearizability, StaleReadAfterACompletedWriteIsFlagged) {
  const std::vector<MapOperation> history = {
      map_set(0, 1, 2, 0, 1), map_set(0, 3, 4, 0, 2),
      map_get(1, 5, 6, 0, 1),  // the write of 2 completed before this call
  };
  const LinearizabilityResult result = check_map(history);
  ASSERT_TRUE(result.is_violation());
  EXPECT_EQ(result.stuck_operation, 2U);
  EXPECT_NE(result.explanation.find("thread 1: get(k0) -> 1 (interval 5..6)"),
            std::string::npos)
      << result.explanation;
  EXPECT_NE(result.explanation.find("{k0=2}"), std::string::npos)
      << result.explanation;
  EXPECT_EQ(result.order, (std::vector<size_t>{0, 1}));  // longest prefix
}

TEST(MapLinearizability, ReadOverlappingAWriteMayReturnEitherValue) {
  for (const std::optional<int> seen :
       {std::optional<int>(), std::optional(1)}) {
    const std::vector<MapOperation> history = {
        map_set(0, 1, 10, 0, 1),
        map_get(1, 2, 5, 0, seen),
    };
    const LinearizabilityResult result = check_map(history);
    EXPECT_TRUE(result.linearizable) << result.explanation;
    EXPECT_TRUE(is_valid_linearization<MapModel>(history, {}, result.order));
  }
}

TEST(MapLinearizability, TwoReadsCannotSeeTheWriteInOppositeOrders) {
  // Both reads overlap the write, but the first read sees it and the second,
  // called after the first returned, does not: no single point works.
  const std::vector<MapOperation> history = {
      map_set(0, 1, 20, 0, 1),
      map_get(1, 2, 3, 0, 1),
      map_get(2, 4, 5, 0, std::nullopt),
  };
  const LinearizabilityResult result = check_map(history);
  ASSERT_TRUE(result.is_violation());
  EXPECT_EQ(result.explanation,
            "thread 2: get(k0) -> none (interval 4..5) has no valid place: "
            "the only state the map could be in during its interval was "
            "{k0=1}, and the model does not allow that result there. The "
            "longest linearizable prefix places 2 of the 3 operations.");
}

TEST(MapLinearizability, EqualTimestampsAcrossThreadsMeanConcurrent) {
  // The read is called at the very time the write returns: concurrent, so
  // the read may take effect first and see nothing.
  const std::vector<MapOperation> touching = {
      map_set(0, 1, 5, 0, 1),
      map_get(1, 5, 8, 0, std::nullopt),
  };
  EXPECT_TRUE(check_map(touching).linearizable);
  // One tick later the write precedes the read.
  const std::vector<MapOperation> ordered = {
      map_set(0, 1, 5, 0, 1),
      map_get(1, 6, 8, 0, std::nullopt),
  };
  EXPECT_TRUE(check_map(ordered).is_violation());
}

// ---------------------------------------------------------------------------
// 2. Set with snapshot.

TEST(SnapshotLinearizability, MixThatNeverExistedIsFlagged) {
  // k1 is inserted before k2 and never removed, so no state has k2 without k1.
  const std::vector<SetOperation> history = {
      set_insert(0, 1, 2, 1),
      set_insert(0, 3, 4, 2),
      set_all(1, 5, 6, {0, 2}),
  };
  const LinearizabilityResult result = check_set(history, {0});
  ASSERT_TRUE(result.is_violation());
  EXPECT_EQ(result.stuck_operation, 2U);
  EXPECT_NE(result.explanation.find("thread 1: all() -> {k0, k2}"),
            std::string::npos)
      << result.explanation;
}

TEST(SnapshotLinearizability, ExplanationListsEveryStateInTheInterval) {
  // all() runs from 4 to 9 while k1 and k2 are inserted; k3 only afterwards.
  const std::vector<SetOperation> history = {
      set_insert(0, 5, 6, 1),
      set_insert(0, 7, 8, 2),
      set_insert(0, 10, 11, 3),
      set_all(1, 4, 9, {0, 3}),
  };
  const LinearizabilityResult result = check_set(history, {0});
  ASSERT_TRUE(result.is_violation());
  EXPECT_EQ(result.explanation,
            "thread 1: all() -> {k0, k3} (interval 4..9) has no valid place: "
            "every state the set could be in during its interval was one of "
            "{k0}, {k0, k1}, {k0, k1, k2}; the model allows that result in "
            "none of them. The longest linearizable prefix places 2 of the 4 "
            "operations.");
}

TEST(SnapshotLinearizability, ManyPossibleStatesAreCappedWithACount) {
  // Six concurrent inserts during all(): 64 possible states, 4 shown.
  std::vector<SetOperation> history;
  for (int key = 1; key <= 6; ++key) {
    history.push_back(set_insert(key, 2, 10, key));
  }
  history.push_back(set_all(0, 1, 20, {7}));
  const LinearizabilityResult result = check_set(history);
  ASSERT_TRUE(result.is_violation());
  EXPECT_NE(result.explanation.find("and 60 more"), std::string::npos)
      << result.explanation;
}

TEST(SnapshotLinearizability, StateInsideTheIntervalPasses) {
  // {k0, k1} existed between the two inserts, inside all()'s interval.
  const std::vector<SetOperation> history = {
      set_insert(0, 5, 6, 1), set_insert(0, 7, 8, 2),
      set_all(1, 4, 9, {1, 0}),  // order of yield does not matter
  };
  const LinearizabilityResult result = check_set(history, {0});
  EXPECT_TRUE(result.linearizable) << result.explanation;
  EXPECT_TRUE(
      is_valid_linearization<SnapshotSetModel>(history, {0}, result.order));
}

TEST(SnapshotLinearizability, EarlyStoppedIterationPassesWhenASubset) {
  const std::vector<SetOperation> history = {
      set_insert(0, 1, 2, 1),
      set_insert(0, 3, 4, 2),
      set_all(1, 5, 6, {0, 2}, /*stopped_after=*/2),
  };
  EXPECT_TRUE(check_set(history, {0}).linearizable);
  // A key that was never there still fails, stopped or not.
  const std::vector<SetOperation> impossible = {
      set_insert(0, 1, 2, 1),
      set_all(1, 5, 6, {0, 3}, /*stopped_after=*/2),
  };
  EXPECT_TRUE(check_set(impossible, {0}).is_violation());
}

TEST(SnapshotLinearizability, DuplicatedKeyIsFlagged) {
  const std::vector<SetOperation> history = {
      set_insert(0, 1, 2, 1),
      set_all(1, 3, 4, {1, 1}),
  };
  EXPECT_TRUE(check_set(history).is_violation());
}

TEST(SnapshotLinearizability, EraseDuringIterationMayOrMayNotBeSeen) {
  for (const std::vector<int>& seen : {std::vector<int>{0, 1}, {0}}) {
    const std::vector<SetOperation> history = {
        set_erase(0, 3, 4, 1),
        set_all(1, 1, 6, seen),
    };
    EXPECT_TRUE(check_set(history, {0, 1}).linearizable);
  }
}

// ---------------------------------------------------------------------------
// 3. Commit counter.

TEST(CommitLinearizability, OverlappingCommitsReturningTheSameIdAreFlagged) {
  const std::vector<CommitOperation> history = {
      commit(0, 1, 4, "a", 0),
      commit(1, 2, 5, "b", 0),  // lost commit: same id as "a"
      commit(0, 6, 7, "c", 1),
  };
  const LinearizabilityResult result =
      check_linearizable<CommitCounterModel>(history, 0);
  ASSERT_TRUE(result.is_violation());
  EXPECT_NE(result.explanation.find("-> 0"), std::string::npos)
      << result.explanation;
  EXPECT_NE(result.explanation.find("{next id 1}"), std::string::npos)
      << result.explanation;
  // The object has no kObjectName, so the text says "object".
  EXPECT_NE(result.explanation.find("the object could be in"),
            std::string::npos)
      << result.explanation;
}

TEST(CommitLinearizability,
     OverlappingCommitsWithDistinctIdsPassInEitherOrder) {
  const std::vector<CommitOperation> history = {
      commit(0, 1, 4, "a", 1),
      commit(1, 2, 5, "b", 0),
  };
  const LinearizabilityResult result =
      check_linearizable<CommitCounterModel>(history, 0);
  EXPECT_TRUE(result.linearizable);
  EXPECT_EQ(result.order, (std::vector<size_t>{1, 0}));
}

// ---------------------------------------------------------------------------
// 4. Malformed histories.

TEST(MalformedHistory, ReturnNotAfterCallThrows) {
  EXPECT_THROW(check_map({map_set(0, 5, 5, 0, 1)}), std::invalid_argument);
  EXPECT_THROW(check_map({map_set(0, 5, 4, 0, 1)}), std::invalid_argument);
  try {
    check_map({map_get(0, 1, 2, 0, 1), map_set(3, 9, 2, 0, 1)});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "malformed history: operation #1 (thread 3: set(k0, 1) "
              "(interval 9..2)) does not return after its call; every "
              "operation needs call < ret");
  }
}

TEST(MalformedHistory, OverlappingOperationsOfOneThreadThrow) {
  try {
    check_map({map_set(1, 1, 10, 0, 1), map_get(1, 5, 12, 0, 1)});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "malformed history: operations #0 (thread 1: set(k0, 1) "
              "(interval 1..10)) and #1 (thread 1: get(k0) -> 1 (interval "
              "5..12)) of the same thread overlap; one thread's operations "
              "must be sequential, each returning strictly before the next is "
              "called");
  }
  // Touching (ret == next call) is an overlap too for one thread.
  EXPECT_THROW(check_map({map_set(1, 1, 5, 0, 1), map_get(1, 5, 6, 0, 1)}),
               std::invalid_argument);
  // Recorded out of order is fine as long as the intervals are disjoint.
  EXPECT_NO_THROW(check_map({map_get(1, 6, 7, 0, 1), map_set(1, 1, 5, 0, 1)}));
}

// ---------------------------------------------------------------------------
// 5. Randomized.

TEST(RandomizedLinearizability, LinearizableByConstructionAlwaysPasses) {
  std::mt19937_64 random(20240601);
  int checked = 0;
  for (int round = 0; round < 800; ++round) {
    const int threads = 2 + round % 3;
    const int per_thread = 3 + round % 12;
    const auto map_history =
        random_map_history(random, threads, per_thread, 1 + round % 3);
    const LinearizabilityResult map_result = check_map(map_history);
    ASSERT_TRUE(map_result.linearizable) << map_result.explanation;
    ASSERT_TRUE(
        is_valid_linearization<MapModel>(map_history, {}, map_result.order));

    const auto set_history = random_set_history(random, threads, per_thread);
    const LinearizabilityResult set_result = check_set(set_history);
    ASSERT_TRUE(set_result.linearizable) << set_result.explanation;
    ASSERT_TRUE(is_valid_linearization<SnapshotSetModel>(set_history, {},
                                                         set_result.order));
    checked += 2;
    if (round % 2 == 0) {
      const auto commit_history =
          random_commit_history(random, threads, per_thread);
      const LinearizabilityResult commit_result =
          check_linearizable<CommitCounterModel>(commit_history, 0);
      ASSERT_TRUE(commit_result.linearizable) << commit_result.explanation;
      ASSERT_TRUE(is_valid_linearization<CommitCounterModel>(
          commit_history, 0, commit_result.order));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2000);
}

TEST(RandomizedLinearizability, LongHistoriesNeedManyBitsetWords) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 10; ++round) {
    const auto history = random_map_history(random, 4, 80, 3);  // 320 ops
    const LinearizabilityResult result = check_map(history);
    ASSERT_TRUE(result.linearizable) << result.explanation;
    ASSERT_TRUE(is_valid_linearization<MapModel>(history, {}, result.order));
  }
}

TEST(RandomizedLinearizability, OneImpossibleOutputIsAlwaysRejected) {
  std::mt19937_64 random(99);
  for (int round = 0; round < 300; ++round) {
    const int threads = 2 + round % 3;
    const int per_thread = 3 + round % 10;

    // A get returning a value no set ever wrote.
    auto map_history = random_map_history(random, threads, per_thread, 2);
    std::vector<size_t> gets;
    for (size_t i = 0; i < map_history.size(); ++i) {
      if (map_history[i].input.kind == MapModel::Kind::kGet) gets.push_back(i);
    }
    if (!gets.empty()) {
      const size_t victim = gets[random() % gets.size()];
      map_history[victim].output = -1;
      const LinearizabilityResult result = check_map(map_history);
      ASSERT_TRUE(result.is_violation());
      ASSERT_FALSE(result.explanation.empty());
    }

    // An all() yielding a key that was never inserted.
    auto set_history = random_set_history(random, threads, per_thread);
    for (auto& op : set_history) {
      if (op.input.kind != SnapshotSetModel::Kind::kAll) continue;
      op.output.push_back(99);
      if (op.input.stopped_after) ++*op.input.stopped_after;
      const LinearizabilityResult result = check_set(set_history);
      ASSERT_TRUE(result.is_violation());
      break;
    }

    // A commit id nobody could have handed out.
    auto commit_history = random_commit_history(random, threads, per_thread);
    commit_history[random() % commit_history.size()].output =
        commit_history.size() + 3;
    ASSERT_TRUE(check_linearizable<CommitCounterModel>(commit_history, 0)
                    .is_violation());
  }
}

TEST(RandomizedLinearizability, AgreesWithBruteForceOnTinyHistories) {
  // Random intervals and random outputs: some linearizable, most not.
  std::mt19937_64 random(424242);
  int linearizable = 0;
  int violations = 0;
  for (int round = 0; round < 3000; ++round) {
    const int threads = 1 + static_cast<int>(random() % 3);
    const int operations = 1 + static_cast<int>(random() % 6);
    std::vector<uint64_t> thread_time(threads, 0);
    std::vector<MapOperation> history;
    for (int i = 0; i < operations; ++i) {
      const int thread = static_cast<int>(random() % threads);
      const uint64_t call = thread_time[thread] + 1 + random() % 6;
      const uint64_t ret = call + 1 + random() % 8;
      thread_time[thread] = ret;
      const int key = static_cast<int>(random() % 2);
      if (random() % 2 == 0) {
        history.push_back(map_set(thread, call, ret, key,
                                  1 + static_cast<int>(random() % 2)));
      } else {
        const int seen = static_cast<int>(random() % 3);
        history.push_back(
            map_get(thread, call, ret, key,
                    seen == 0 ? std::nullopt : std::optional<int>(seen)));
      }
    }
    std::vector<bool> used(history.size(), false);
    const bool expected =
        brute_force_linearizable<MapModel>(history, {}, used, 0);
    const LinearizabilityResult result = check_map(history);
    ASSERT_EQ(result.linearizable, expected) << "round " << round;
    ASSERT_FALSE(result.exhausted_budget);
    if (expected) {
      ++linearizable;
      ASSERT_TRUE(is_valid_linearization<MapModel>(history, {}, result.order));
    } else {
      ++violations;
      ASSERT_FALSE(result.explanation.empty());
    }
  }
  // Both outcomes must be well represented for the comparison to mean much.
  EXPECT_GT(linearizable, 300);
  EXPECT_GT(violations, 300);
}

TEST(RandomizedLinearizability, ExplanationIsDeterministic) {
  std::mt19937_64 random(5);
  for (int round = 0; round < 50; ++round) {
    auto history = random_map_history(random, 3, 8, 2);
    // Spread the times so that no two are equal, keeping every precedence
    // (a thread id below 4 fits in the low bits); then the record order of
    // the operations must not matter to the text either.
    for (auto& op : history) {
      op.call = 8 * op.call + static_cast<uint64_t>(op.thread);
      op.ret = 8 * op.ret + 4 + static_cast<uint64_t>(op.thread);
    }
    MapOperation& victim = history[random() % history.size()];
    victim.input.kind = MapModel::Kind::kGet;
    victim.output = 12345;  // never written

    const LinearizabilityResult first = check_map(history);
    ASSERT_TRUE(first.is_violation());
    EXPECT_EQ(check_map(history).explanation, first.explanation);
    EXPECT_EQ(check_map(history).order, first.order);
    auto shuffled = history;
    std::shuffle(shuffled.begin(), shuffled.end(), random);
    EXPECT_EQ(check_map(shuffled).explanation, first.explanation);
  }
}

// ---------------------------------------------------------------------------
// 5b. The first guess: the order of the operations' effects, when the
// recorder gives one, tried before any search.

MapOperation placed(MapOperation op, uint64_t effect_order) {
  op.effect_order = effect_order;
  return op;
}

// The get saw the set and returned first: the return order does not fit.
std::vector<MapOperation> get_returns_first(uint64_t set_effect,
                                            uint64_t get_effect) {
  return {placed(map_set(0, 1, 8, 0, 7), set_effect),
          placed(map_get(1, 3, 5, 0, 7), get_effect)};
}

TEST(FirstGuess, TheEffectOrderFitsWithoutASearch) {
  const LinearizabilityResult result = check_map(get_returns_first(2, 4));
  EXPECT_TRUE(result.linearizable);
  EXPECT_EQ(result.order, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(result.steps, 2U);  // one step per operation: no search
}

TEST(FirstGuess, WithoutAnEffectOrderOrWithAWrongOneTheSearchDecides) {
  for (const auto& [set_effect, get_effect] :
       {std::pair<uint64_t, uint64_t>{0, 0}, {4, 2}}) {
    const std::vector<MapOperation> history =
        get_returns_first(set_effect, get_effect);
    const LinearizabilityResult result = check_map(history);
    EXPECT_TRUE(result.linearizable);
    EXPECT_TRUE(is_valid_linearization<MapModel>(history, {}, result.order));
    EXPECT_GT(result.steps, 2U);  // the guess failed: the search found it
  }
}

TEST(FirstGuess, AnEffectOrderAgainstRealTimeIsNotTrusted) {
  // The get was called after the set returned, so it must see 7. Placed
  // before the set, it would fit; the checker must not take that order.
  const std::vector<MapOperation> history = {
      placed(map_set(0, 1, 2, 0, 7), 5),
      placed(map_get(1, 3, 4, 0, std::nullopt), 1),
  };
  const LinearizabilityResult result = check_map(history);
  EXPECT_TRUE(result.is_violation()) << result.explanation;
  EXPECT_EQ(result.stuck_operation, std::optional<size_t>(1));
}

TEST(FirstGuess, OneUnplacedOperationMeansTheReturnOrder) {
  const std::vector<MapOperation> history = {
      placed(map_set(0, 1, 2, 0, 7), 9),
      map_get(1, 3, 4, 0, 7),
  };
  const LinearizabilityResult result = check_map(history);
  EXPECT_TRUE(result.linearizable);
  EXPECT_EQ(result.order, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(result.steps, 2U);
}

// ---------------------------------------------------------------------------
// 6. Budget.

TEST(LinearizabilityBudget, ExhaustedBudgetIsUnknownNotAFinding) {
  // Twelve mutually concurrent commits with one id missing and one doubled:
  // not linearizable, and proving it takes a few hundred steps.
  std::vector<CommitOperation> history;
  history.reserve(12);
  for (int i = 0; i < 12; ++i) {
    const uint64_t id = i == 11 ? 0 : static_cast<uint64_t>(i);
    history.push_back(commit(i, 1 + i, 100 - i, "p", id));
  }
  const LinearizabilityResult limited =
      check_linearizable<CommitCounterModel>(history, 0, /*max_steps=*/20);
  EXPECT_TRUE(limited.exhausted_budget);
  EXPECT_FALSE(limited.linearizable);
  EXPECT_FALSE(limited.is_violation());
  EXPECT_EQ(limited.steps, 20U);
  EXPECT_FALSE(limited.stuck_operation.has_value());
  EXPECT_EQ(limited.explanation.rfind("unknown: ", 0), 0U)
      << limited.explanation;

  const LinearizabilityResult full =
      check_linearizable<CommitCounterModel>(history, 0);
  EXPECT_FALSE(full.exhausted_budget);
  EXPECT_TRUE(full.is_violation());
  EXPECT_GT(full.steps, 20U);
}

TEST(LinearizabilityBudget, LinearizableHistoryOverBudgetIsUnknownToo) {
  std::vector<MapOperation> history;
  history.reserve(10);
  for (int i = 0; i < 10; ++i) {
    history.push_back(map_set(0, 10 * i + 1, 10 * i + 2, 0, i));
  }
  const LinearizabilityResult limited = check_map(history, /*max_steps=*/5);
  EXPECT_TRUE(limited.exhausted_budget);
  EXPECT_FALSE(limited.is_violation());
  EXPECT_EQ(limited.order.size(), 5U);  // the prefix it got through
  const LinearizabilityResult enough = check_map(history, /*max_steps=*/10);
  EXPECT_TRUE(enough.linearizable);
  EXPECT_EQ(enough.steps, 10U);
}

}  // namespace
}  // namespace racelab
