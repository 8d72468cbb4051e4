// A scenario: a named concurrent workload over one family.
//
// A family binding F provides:
//   using Store, Op, Result;
//   static constexpr const char* kName;
//   static Result execute(Store&, const Op&, OpContext&, History<Op,Result>*
//   nested) static std::string describe(const Op&), describe(const Result&)
// A scenario turns a seed into a program (setup operations, then per-thread
// operations) and checks its own invariants on the finished run.
#ifndef RACELAB_SCENARIO_H_
#define RACELAB_SCENARIO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/internal/history.h"

namespace racelab {

// A family's or a store's name: T::name() when it has one, else T::kName
// (a const char*, std::string_view or std::string constant).
template <class T>
concept NamedByFunction = requires {
  { T::name() } -> std::convertible_to<std::string_view>;
};
template <class T>
concept NamedByConstant = requires {
  std::string_view(T::kName);
};
template <class T>
std::string family_name() {
  if constexpr (NamedByFunction<T>) {
    return std::string(std::string_view(T::name()));
  } else {
    return std::string(std::string_view(T::kName));
  }
}

template <class Op>
struct Program {
  std::vector<Op> setup;                 // run by one thread before the others
  std::vector<std::vector<Op>> threads;  // one list per logical thread
  // Run after every thread has finished, recorded as one more thread, so the
  // history itself shows what the run left behind (a lost commit is a final
  // read that cannot be explained).
  std::vector<Op> finale;
};

// How big a program to build. Stress mode runs the full workload (the seed
// reproductions at their original size); controlled mode explores the small
// version, where every interleaving that matters still exists but each
// schedule is short enough to try thousands of them.
enum class ProgramSize { kFull, kSmall };

// Where a family's stores come from: any callable returning a fresh store (a
// function, a capturing lambda).
template <class F>
using StoreFactory = std::function<std::unique_ptr<typename F::Store>()>;

template <class F>
struct Scenario {
  using Store = typename F::Store;
  using Op = typename F::Op;
  using Result = typename F::Result;

  std::string name;
  std::string description;
  // The program for a seed (most scenarios ignore it; `generated` does not).
  std::function<Program<Op>(std::uint64_t seed, ProgramSize size)> program;
  // Invariants over the finished run; the store is quiescent. Each violation is
  // appended as a finding.
  std::function<void(const Program<Op>&, const History<Op, Result>&, Store&,
                     std::vector<Finding>&)>
      check;
  // The modes the scenario runs in.
  std::vector<Mode> modes = {Mode::kStress, Mode::kControlled};
  // False when `program` ignores the seed: the scenario is one program. A
  // search then builds it once, and a dfs search of it that is exhausted
  // covers the scenario (exhaustive, `verified`). True (the default): each
  // seed may give another program; dfs searches one program per tree and is
  // never exhaustive over the scenario.
  bool seeded = true;
};

}  // namespace racelab

#endif  // RACELAB_SCENARIO_H_
