// Benchmark of the linearizability checker
// (racelab/internal/linearizability.h): time per check for random histories of
// 3 threads x 10, 20 and 40 operations on a map with three keys, linearizable
// ones (the common case in a clean run) and ones with one impossible read (a
// violation, where the search must exhaust every order before it can say so).
// Seeds are fixed, so runs compare.
//
// Run: linearizability_bench --benchmark_repetitions=9
//      (the median of the repetitions is the figure to quote)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "racelab/internal/linearizability.h"

namespace racelab {
namespace {

// A map from small integer keys to integer values: set(k, v), get(k).
struct MapModel {
  static constexpr std::string_view kObjectName = "map";

  enum class Kind { kSet, kGet };
  struct Input {
    Kind kind = Kind::kGet;
    int key = 0;
    int value = 0;
  };
  using Output = std::optional<int>;
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

constexpr int kThreads = 3;
constexpr int kKeys = 3;
constexpr int kHistoriesPerSize = 64;

// A history linearizable by construction: a random interleaving of the
// threads' programs runs on a real std::map, operation i takes effect at time
// 10 * (i + 1), and each gets a random interval around that point that stays
// clear of its own thread's neighbours (the same scheme as the tests).
std::vector<Operation<MapModel>> random_history(std::mt19937_64& random,
                                                int per_thread) {
  std::vector<int> remaining(kThreads, per_thread);
  std::map<int, int> real;
  std::vector<Operation<MapModel>> history;
  int next_value = 1;
  for (int left = kThreads * per_thread; left > 0; --left) {
    int thread;
    do {
      thread = static_cast<int>(random() % kThreads);
    } while (remaining[thread] == 0);
    --remaining[thread];
    Operation<MapModel> op;
    op.thread = thread;
    op.input.kind =
        random() % 2 == 0 ? MapModel::Kind::kSet : MapModel::Kind::kGet;
    op.input.key = static_cast<int>(random() % kKeys);
    op.input.value = next_value++;
    if (op.input.kind == MapModel::Kind::kSet) {
      real[op.input.key] = op.input.value;
    } else if (const auto found = real.find(op.input.key);
               found != real.end()) {
      op.output = found->second;
    }
    op.call = op.ret = 10 * (history.size() + 1);
    history.push_back(op);
  }
  for (int thread = 0; thread < kThreads; ++thread) {
    std::vector<size_t> mine;
    for (size_t i = 0; i < history.size(); ++i) {
      if (history[i].thread == thread) mine.push_back(i);
    }
    uint64_t previous_return = 0;
    for (size_t j = 0; j < mine.size(); ++j) {
      Operation<MapModel>& op = history[mine[j]];
      const uint64_t point = op.call;
      op.call = previous_return + 1 + random() % (point - 1 - previous_return);
      const uint64_t last_return =
          j + 1 < mine.size() ? history[mine[j + 1]].call - 2 : point + 40;
      op.ret = point + 1 + random() % (last_return - point);
      previous_return = op.ret;
    }
  }
  return history;
}

std::vector<std::vector<Operation<MapModel>>> histories(int per_thread,
                                                        bool with_violation) {
  std::mt19937_64 random(1000 + per_thread);
  std::vector<std::vector<Operation<MapModel>>> result;
  while (result.size() < kHistoriesPerSize) {
    auto history = random_history(random, per_thread);
    if (with_violation) {
      std::vector<size_t> gets;
      for (size_t i = 0; i < history.size(); ++i) {
        if (history[i].input.kind == MapModel::Kind::kGet) gets.push_back(i);
      }
      if (gets.empty()) continue;
      history[gets[random() % gets.size()]].output = -1;  // never written
    }
    result.push_back(std::move(history));
  }
  return result;
}

void run(benchmark::State& state, bool with_violation) {
  const int per_thread = static_cast<int>(state.range(0));
  const auto cases = histories(per_thread, with_violation);
  size_t next = 0;
  size_t steps = 0;
  size_t checks = 0;
  for ([[maybe_unused]] auto _ : state) {
    const auto& history = cases[next++ % cases.size()];
    LinearizabilityResult result =
        check_linearizable<MapModel>(history, MapModel::State{});
    if (result.linearizable == with_violation || result.exhausted_budget) {
      state.SkipWithError("unexpected verdict");
      break;
    }
    steps += result.steps;
    ++checks;
    benchmark::DoNotOptimize(result);
  }
  const int64_t operations = int64_t{kThreads} * per_thread;
  state.SetComplexityN(operations);
  state.counters["operations"] = static_cast<double>(operations);
  state.counters["steps_per_check"] =
      checks == 0 ? 0.0
                  : static_cast<double>(steps) / static_cast<double>(checks);
}

void linearizable_history(benchmark::State& state) {
  run(state, /*with_violation=*/false);
}

void history_with_violation(benchmark::State& state) {
  run(state, /*with_violation=*/true);
}

BENCHMARK(linearizable_history)
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Unit(benchmark::kMicrosecond)
    ->Complexity();
BENCHMARK(history_with_violation)
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Unit(benchmark::kMicrosecond)
    ->Complexity();

}  // namespace
}  // namespace racelab
