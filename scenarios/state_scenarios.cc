// The state scenarios, including the seed's reproduction.
#include "state_scenarios.h"

#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/sched/scheduler.h"
#include "state_spec_invariants.h"

namespace racelab::state {
namespace {

using Op = StateOp;

Program<Op> seed_slow_reader(std::uint64_t /*seed*/, ProgramSize size) {
  Program<Op> p;
  p.setup.push_back(Op::set("k0", "0"));
  std::vector<Op> writer;
  // The small version still crosses a rehash (13 buckets hold 13 keys), which
  // is what reorders the buckets under the paused iterator.
  const int keys = size == ProgramSize::kFull ? 1000 : 16;
  for (int i = 0; i < keys; ++i)
    writer.push_back(Op::set(absl::StrCat("k", i), absl::StrCat(i)));
  p.threads = {{Op::all(/*pause_each=*/true)}, writer};
  p.finale = {Op::all()};
  return p;
}

Program<Op> erase_during_iteration(std::uint64_t /*seed*/, ProgramSize size) {
  Program<Op> p;
  const bool full = size == ProgramSize::kFull;
  for (int i = 0; i < (full ? 4 : 2); ++i) {
    p.setup.push_back(Op::set(absl::StrCat("stable", i), "s"));
  }
  const int keys = full ? 16 : 4;
  for (int i = 0; i < keys; ++i) {
    p.setup.push_back(Op::set(absl::StrCat("k", i), absl::StrCat(i)));
  }
  // Full size: the reader iterates 20 times while the eraser erases every key
  // and puts it back, 20 times over, so the two overlap however late the OS
  // starts either thread. Small: one iteration, one round of erases.
  const int rounds = full ? 20 : 1;
  std::vector<Op> reader, eraser;
  for (int r = 0; r < rounds; ++r) {
    reader.push_back(Op::all(/*pause_each=*/true));
    for (int i = 0; i < keys; ++i)
      eraser.push_back(Op::erase(absl::StrCat("k", i)));
    if (r + 1 == rounds) break;
    for (int i = 0; i < keys; ++i) {
      eraser.push_back(Op::set(absl::StrCat("k", i), absl::StrCat(i)));
    }
  }
  p.threads = {reader, eraser};
  p.finale = {Op::all()};
  return p;
}

// The same size in both modes: with fewer keys the callback's inserts do not
// trigger a rehash, which is what breaks the buggy iteration.
Program<Op> reentrant_yield(std::uint64_t /*seed*/, ProgramSize /*size*/) {
  Program<Op> p;
  for (int i = 0; i < 8; ++i)
    p.setup.push_back(Op::set(absl::StrCat("k", i), absl::StrCat(i)));
  p.threads = {
      {Op::all(/*pause_each=*/false, /*stop_after=*/0, /*write_back=*/true)}};
  p.finale = {Op::all()};
  return p;
}

// A random program: 2-4 threads of 1-8 operations over three keys.
Program<Op> generated(std::uint64_t seed, ProgramSize /*size*/) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) {
    return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
  };
  Program<Op> p;
  p.setup = {Op::set("k0", "v0"), Op::set("k1", "v1")};
  const int threads = 2 + below(3);
  for (int t = 0; t < threads; ++t) {
    std::vector<Op> ops;
    const int count = 1 + below(8);
    for (int i = 0; i < count; ++i) {
      std::string key = absl::StrCat("k", below(3));
      const int kind = below(10);
      if (kind < 4) {
        ops.push_back(Op::set(key, absl::StrCat("v", t, ".", i)));
      } else if (kind < 5) {
        ops.push_back(Op::get(key));
      } else if (kind < 7) {
        ops.push_back(Op::erase(key));
      } else {
        ops.push_back(Op::all(/*pause_each=*/below(2) == 0,
                              /*stop_after=*/below(4) == 0 ? 2 : 0));
      }
    }
    p.threads.push_back(std::move(ops));
  }
  p.finale = {Op::all()};
  return p;
}

}  // namespace

void check_state_invariants(const Program<StateOp>& /*program*/,
                            const History<StateOp, StateResult>& history,
                            StateStore& /*store*/,
                            std::vector<Finding>& findings) {
  // Judges the recorded calls alone and touches nothing under test, so TSan
  // need not watch it (sched::HarnessScope), as the linearizability check.
  sched::HarnessScope harness;
  std::vector<StateCallView> calls;
  calls.reserve(history.size());
  for (const auto& e : history) {
    StateCallView c;
    c.thread = e.thread;
    switch (e.op.kind) {
      case Op::Kind::kSet:
        c.kind = StateCallView::Kind::kSet;
        c.key = e.op.key;
        c.value = e.op.value;
        break;
      case Op::Kind::kErase:
        c.kind = StateCallView::Kind::kErase;
        c.key = e.op.key;
        break;
      case Op::Kind::kAll:
        c.kind = StateCallView::Kind::kAll;
        c.entries = &e.result.entries;
        c.complete = e.op.stop_after == 0;
        break;
      case Op::Kind::kGet:
        break;
    }
    calls.push_back(c);
  }
  const WrittenEntries written = written_entries(calls);
  const std::vector<std::string_view> stable = stable_keys(calls);
  for (const StateCallView& c : calls) {
    if (c.kind != StateCallView::Kind::kAll) continue;
    for (std::string finding : {keys_twice(c), entries_never_set(c, written),
                                stable_keys_skipped(c, stable)}) {
      if (!finding.empty())
        findings.push_back(invariant_violation(std::move(finding)));
    }
  }
}

const std::vector<Scenario<StateFamily>>& state_scenarios() {
  static const auto* scenarios = new std::vector<Scenario<StateFamily>>{
      {"seed_slow_reader",
       "the seed's repro: one reader iterates all keys, pausing at each, while "
       "a "
       "writer sets 1000 keys",
       seed_slow_reader, check_state_invariants},
      {"erase_during_iteration",
       "one reader iterates 20 keys, pausing at each, while a writer erases 16 "
       "of them and puts them back (20 rounds)",
       erase_during_iteration, check_state_invariants},
      {"reentrant_yield",
       "the iteration callback itself calls set() for every key it is given",
       reentrant_yield, check_state_invariants},
      {"generated",
       "random programs from the seed: 2-4 threads of 1-8 sets, gets, erases "
       "and "
       "iterations over three keys (controlled mode: pct and random run a new "
       "program in every schedule, dfs one program per search tree)",
       generated,
       check_state_invariants,
       {Mode::kControlled}},
  };
  return *scenarios;
}

}  // namespace racelab::state
