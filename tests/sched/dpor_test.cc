// Tests of DfsStrategy (dfs with partial-order reduction): on simulated
// programs whose steps' footprints are given, the schedules explored are
// exactly one per Mazurkiewicz trace (counted by brute force over every
// interleaving); on the real scheduler, threads on different locks need one
// schedule, on the same lock both orders, and a split-lock check-then-act is
// found.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/sync.h"

namespace racelab::sched {
namespace {

// A simulated program: thread t runs steps[t][0], steps[t][1], ... each with
// the given footprint; every thread is enabled until its steps are used up.
using Program = std::vector<std::vector<Footprint>>;

int x_object, y_object, z_object;
const PointAccess kWriteX{ObjectKind::kAtomic, &x_object, AccessKind::kWrite};
const PointAccess kReadX{ObjectKind::kAtomic, &x_object, AccessKind::kRead};
const PointAccess kWriteY{ObjectKind::kAtomic, &y_object, AccessKind::kWrite};
const PointAccess kLockA{ObjectKind::kLock, &x_object, AccessKind::kWrite};
const PointAccess kLockB{ObjectKind::kLock, &y_object, AccessKind::kWrite};
const PointAccess kSharedA{ObjectKind::kLock, &x_object, AccessKind::kRead};
const PointAccess kAtomicA{ObjectKind::kAtomic, &x_object, AccessKind::kWrite};
const PointAccess kNone = PointAccess::none();
const PointAccess kUnknown = PointAccess::unknown();
const PointAccess kCall = kOperationCall;  // what the engine's ticks touch
const PointAccess kReturn = kOperationReturn;
const PointAccess kWriteZ{ObjectKind::kAtomic, &z_object, AccessKind::kWrite};

// Runs one schedule of `program` under `strategy`; returns the threads picked.
std::vector<int> simulate(Strategy& strategy, const Program& program,
                          bool* more = nullptr) {
  const int n = static_cast<int>(program.size());
  std::vector<std::size_t> next(static_cast<std::size_t>(n), 0);
  std::vector<int> picks;
  strategy.begin_schedule(n);
  int current = -1;
  for (;;) {
    if (current >= 0) {
      const auto c = static_cast<std::size_t>(current);
      strategy.step_finished(current, program[c][next[c]]);
      ++next[c];
    }
    std::vector<int> enabled;
    for (int t = 0; t < n; ++t) {
      const auto u = static_cast<std::size_t>(t);
      if (next[u] < program[u].size()) enabled.push_back(t);
    }
    if (enabled.empty()) break;
    if (strategy.wants_next_accesses()) {
      std::vector<PointAccess> next_access;
      for (int t = 0; t < n; ++t) {
        const auto u = static_cast<std::size_t>(t);
        next_access.push_back(next[u] < program[u].size()
                                  ? program[u][next[u]].front()
                                  : PointAccess::none());
      }
      strategy.next_accesses(next_access);
    }
    current = strategy.pick(enabled, current);
    picks.push_back(current);
  }
  const bool has_more = strategy.end_schedule();
  if (more != nullptr) *more = has_more;
  return picks;
}

// The lexicographically smallest interleaving equivalent to `picks`
// (swapping adjacent independent steps of different threads): one
// representative per Mazurkiewicz trace.
std::vector<int> normal_form(const Program& program,
                             const std::vector<int>& picks) {
  std::vector<std::pair<int, const Footprint*>> events;
  std::vector<std::size_t> next(program.size(), 0);
  for (int t : picks) {
    const auto u = static_cast<std::size_t>(t);
    events.emplace_back(t, &program[u][next[u]++]);
  }
  std::vector<bool> taken(events.size(), false);
  std::vector<int> out;
  while (out.size() < events.size()) {
    int best = -1;
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (taken[i]) continue;
      bool minimal = true;
      for (std::size_t k = 0; k < i && minimal; ++k) {
        if (taken[k]) continue;
        if (events[k].first == events[i].first ||
            dependent(*events[k].second, *events[i].second)) {
          minimal = false;
        }
      }
      if (minimal &&
          (best < 0 ||
           events[i].first < events[static_cast<std::size_t>(best)].first)) {
        best = static_cast<int>(i);
      }
    }
    taken[static_cast<std::size_t>(best)] = true;
    out.push_back(events[static_cast<std::size_t>(best)].first);
  }
  return out;
}

// Every interleaving of `program`, by brute force.
void interleavings(const Program& program, std::vector<std::size_t>& next,
                   std::vector<int>& prefix,
                   std::vector<std::vector<int>>& out) {
  bool any = false;
  for (std::size_t t = 0; t < program.size(); ++t) {
    if (next[t] >= program[t].size()) continue;
    any = true;
    ++next[t];
    prefix.push_back(static_cast<int>(t));
    interleavings(program, next, prefix, out);
    prefix.pop_back();
    --next[t];
  }
  if (!any) out.push_back(prefix);
}

std::set<std::vector<int>> traces_of(const Program& program) {
  std::vector<std::size_t> next(program.size(), 0);
  std::vector<int> prefix;
  std::vector<std::vector<int>> all;
  interleavings(program, next, prefix, all);
  std::set<std::vector<int>> traces;
  for (const auto& picks : all) traces.insert(normal_form(program, picks));
  return traces;
}

struct Search {
  int schedules = 0;
  std::set<std::vector<int>> traces;  // normal forms of the schedules run
  bool repeated = false;              // two schedules of one trace
};

Search search(Strategy& strategy, const Program& program) {
  Search result;
  bool more = true;
  while (more && result.schedules < 10000) {
    const std::vector<int> picks = simulate(strategy, program, &more);
    ++result.schedules;
    if (!result.traces.insert(normal_form(program, picks)).second) {
      result.repeated = true;
    }
  }
  return result;
}

// Explores `program` without a bound and checks it ran one schedule per
// trace, none twice, and returns the number of traces.
int expect_one_schedule_per_trace(const Program& program) {
  DfsStrategy dpor;
  const Search found = search(dpor, program);
  const std::set<std::vector<int>> traces = traces_of(program);
  EXPECT_TRUE(dpor.exhausted());
  EXPECT_EQ(found.traces, traces);
  EXPECT_FALSE(found.repeated);
  EXPECT_EQ(found.schedules, static_cast<int>(traces.size()));
  return found.schedules;
}

// A search split at its first choice (what `racelab explore --jobs N` runs
// for dfs): the first schedule, then one search rooted at each choice of its
// first branching decision, each run to its end on its own strategy. The
// searches together meet every trace; each root's schedules begin with it.
void expect_the_split_covers_every_trace(const Program& program, int bound) {
  DfsStrategy probe(bound);
  probe.record_decisions(true);
  std::set<std::vector<int>> met = {
      normal_form(program, simulate(probe, program))};
  const std::vector<std::vector<int>> roots =
      DfsStrategy::split_roots(probe.last_decisions());
  for (const std::vector<int>& root : roots) {
    DfsStrategy rooted(bound);
    rooted.root_at(root);
    bool more = true;
    for (int runs = 0; more && runs < 10000; ++runs) {
      const std::vector<int> picks = simulate(rooted, program, &more);
      EXPECT_TRUE(std::equal(root.begin(), root.end(), picks.begin()));
      met.insert(normal_form(program, picks));
    }
    EXPECT_FALSE(more);
  }
  // Unbounded: every trace. Bounded: every trace the unsplit search meets.
  if (bound < 0) {
    EXPECT_EQ(met, traces_of(program));
  } else {
    DfsStrategy whole(bound);
    for (const std::vector<int>& trace : search(whole, program).traces) {
      EXPECT_TRUE(met.contains(trace));
    }
  }
}

TEST(DfsStrategyTest, ASearchSplitAtItsFirstChoiceMeetsEveryTrace) {
  const std::vector<Program> programs = {
      {{{kWriteX}, {kWriteY}}, {{kWriteY}, {kWriteX}}},
      {{{kReadX}}, {{kReadX}}, {{kWriteX}}},
      {{{kWriteX}, {kWriteX}}, {{kWriteX}, {kWriteX}}},
      {{{kNone}, {kWriteX}}, {{kNone}, {kWriteX}}, {{kWriteZ}, {kWriteX}}},
      {{{kLockA}, {kWriteX}, {kLockA}}, {{kLockA}, {kWriteX}, {kLockA}}},
      {{{kWriteX}, {kWriteY}}, {{kWriteY}}, {{kWriteZ}, {kWriteX}}}};
  for (std::size_t p = 0; p < programs.size(); ++p) {
    for (int bound : {DfsStrategy::kUnbounded, 0, 1, 2}) {
      SCOPED_TRACE("program " + std::to_string(p) + ", bound " +
                   std::to_string(bound));
      expect_the_split_covers_every_trace(programs[p], bound);
    }
  }
}

TEST(DfsStrategyTest, TwoThreadsOnDifferentLocksNeedOneSchedule) {
  EXPECT_EQ(expect_one_schedule_per_trace({{{kLockA}}, {{kLockB}}}), 1);
  // Plain dfs runs both orders.
  PlainDfsStrategy plain(10);
  EXPECT_EQ(search(plain, {{{kLockA}}, {{kLockB}}}).schedules, 2);
}

TEST(DfsStrategyTest, TwoThreadsOnTheSameLockRunInBothOrders) {
  EXPECT_EQ(expect_one_schedule_per_trace({{{kLockA}}, {{kLockA}}}), 2);
}

TEST(DfsStrategyTest, SharedAcquisitionsCommuteAndExclusiveOnesDoNot) {
  EXPECT_EQ(expect_one_schedule_per_trace({{{kSharedA}}, {{kSharedA}}}), 1);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kSharedA}}, {{kLockA}}}), 2);
  // A lock and an atomic at the same address are different objects.
  EXPECT_EQ(expect_one_schedule_per_trace({{{kLockA}}, {{kAtomicA}}}), 1);
}

// Hand-counted: thread 0 writes x then y, thread 1 writes y then x. The
// traces are fixed by who writes x first and who writes y first; "1 first on
// x, 0 first on y" is a cycle, so 3 traces (of the 6 interleavings).
TEST(DfsStrategyTest, CrossedWritesHaveThreeTraces) {
  const Program program = {{{kWriteX}, {kWriteY}}, {{kWriteY}, {kWriteX}}};
  EXPECT_EQ(traces_of(program).size(), 3u);
  EXPECT_EQ(expect_one_schedule_per_trace(program), 3);
}

// Hand-counted: two readers and a writer of x: the writer goes before or
// after each reader, 2 x 2 = 4 traces; three writers: 3! = 6; three readers:
// 1.
TEST(DfsStrategyTest, ReadsCommuteWithReadsOnly) {
  EXPECT_EQ(
      expect_one_schedule_per_trace({{{kReadX}}, {{kReadX}}, {{kWriteX}}}), 4);
  EXPECT_EQ(
      expect_one_schedule_per_trace({{{kWriteX}}, {{kWriteX}}, {{kWriteX}}}),
      6);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kReadX}}, {{kReadX}}, {{kReadX}}}),
            1);
}

// Hand-counted: two threads of two steps on one object: C(4,2) = 6 traces,
// every interleaving; with a local first step each, still 6 (the local steps
// commute with everything); with the second steps on different objects, 2
// (only the order of the first steps matters).
TEST(DfsStrategyTest, CountsTracesOfTwoStepThreads) {
  EXPECT_EQ(expect_one_schedule_per_trace(
                {{{kWriteX}, {kWriteX}}, {{kWriteX}, {kWriteX}}}),
            6);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kNone}, {kWriteX}, {kWriteX}},
                                           {{kNone}, {kWriteX}, {kWriteX}}}),
            6);
  EXPECT_EQ(expect_one_schedule_per_trace(
                {{{kWriteX}, {kWriteY}}, {{kWriteX}, {kWriteZ}}}),
            2);
}

// Sleep sets: a thread explored at a point must not be explored again after
// independent steps. Thread 2 is independent of the others; without sleep
// sets the search reruns classes of threads 0 and 1 (who writes x first, who
// writes y first, not crossed: 2 x 2 = 4 traces).
TEST(DfsStrategyTest, SleepSetsPreventRedundantSchedules) {
  const Program program = {
      {{kWriteX}, {kWriteY}}, {{kWriteX}, {kWriteY}}, {{kWriteZ}, {kWriteZ}}};
  EXPECT_EQ(expect_one_schedule_per_trace(program), 4);
  const Program four = {{{kWriteX}}, {{kWriteX}}, {{kWriteY}}, {{kWriteY}}};
  EXPECT_EQ(expect_one_schedule_per_trace(four), 4);
  DfsStrategy dpor;
  search(dpor, four);
  EXPECT_EQ(dpor.sleep_blocked(), 0);
}

// On the history clock a call is ordered against another thread's return
// only (the real-time order is which operation returned before which was
// called); a point that names no object is ordered against everything, a
// local step against nothing.
TEST(DfsStrategyTest, OperationBoundariesAndUnknownPoints) {
  EXPECT_EQ(expect_one_schedule_per_trace({{{kCall}}, {{kReturn}}}), 2);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kCall}}, {{kCall}}}), 1);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kReturn}}, {{kReturn}}}), 1);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kReturn, kCall}}, {{kCall}}}), 2);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kCall}}, {{kLockA}}}), 1);
  // One operation per thread: A before B, B before A, or overlapping.
  EXPECT_EQ(expect_one_schedule_per_trace(
                {{{kCall}, {kReturn}}, {{kCall}, {kReturn}}}),
            3);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kUnknown}}, {{kLockA}}}), 2);
  EXPECT_EQ(expect_one_schedule_per_trace({{{kUnknown}}, {{kNone}}}), 1);
}

// With a bound of 0 preemptions only the orders that switch at thread ends
// are explored, and a bound does not change a search that needs none.
TEST(DfsStrategyTest, APreemptionBoundLimitsTheReversals) {
  const Program program = {{{kWriteX}, {kWriteX}}, {{kWriteX}, {kWriteX}}};
  DfsStrategy bounded(0);
  const Search found = search(bounded, program);
  EXPECT_EQ(found.schedules, 2);
  EXPECT_FALSE(found.repeated);
  EXPECT_EQ(bounded.preemption_bound(), 0);
  DfsStrategy one(1);
  EXPECT_EQ(search(one, {{{kLockA}}, {{kLockA}}}).schedules, 2);
}

// The same program with its objects at other addresses in every schedule
// (a store made anew for each schedule, where the allocator puts it): the
// search runs the same schedules as with the objects fixed, one per trace.
// Objects are numbered; schedule k puts object o at pool[(o + 5 k) % 32], so
// an object of one schedule sits where another sat in the schedule before.
TEST(DfsStrategyTest, ObjectsThatMoveBetweenSchedulesAreSearchedAlike) {
  static int pool[32];
  struct Step {
    int object;  // -1: the history clock's call
    AccessKind access;
  };
  using Numbered = std::vector<std::vector<std::vector<Step>>>;
  auto placed = [](const Numbered& numbered, int schedule) {
    Program program;
    for (const auto& thread : numbered) {
      program.emplace_back();
      for (const auto& step : thread) {
        Footprint footprint;
        for (const Step& a : step) {
          if (a.object < 0) {
            footprint.push_back(kCall);
            continue;
          }
          footprint.push_back({ObjectKind::kAtomic,
                               &pool[(a.object + 5 * schedule) % 32],
                               a.access});
        }
        program.back().push_back(footprint);
      }
    }
    return program;
  };
  constexpr AccessKind W = AccessKind::kWrite;
  constexpr AccessKind R = AccessKind::kRead;
  const std::vector<Numbered> programs = {
      // The sleep-set program above: 4 traces.
      {{{{0, W}}, {{1, W}}}, {{{0, W}}, {{1, W}}}, {{{2, W}}, {{2, W}}}},
      {{{{0, W}}}, {{{0, W}}}, {{{1, W}}}, {{{1, W}}}},
      {{{{-1, R}}, {{0, W}}, {{1, R}}},
       {{{-1, R}}, {{1, W}}, {{0, R}}},
       {{{2, W}}, {{0, R}, {2, W}}}},
      {{{{0, W}}, {{1, W}}, {{2, W}}}, {{{2, W}}, {{1, W}}}, {{{3, W}}}},
  };
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const Program fixed = placed(programs[i], 0);
    const std::set<std::vector<int>> traces = traces_of(fixed);
    for (int moving = 0; moving < 2; ++moving) {
      DfsStrategy dpor;
      Search found;
      bool more = true;
      while (more && found.schedules < 10000) {
        const Program program =
            moving ? placed(programs[i], found.schedules) : fixed;
        const std::vector<int> picks = simulate(dpor, program, &more);
        ++found.schedules;
        if (!found.traces.insert(normal_form(fixed, picks)).second) {
          found.repeated = true;
        }
      }
      EXPECT_TRUE(dpor.exhausted()) << "program " << i << " moving " << moving;
      EXPECT_EQ(found.traces, traces)
          << "program " << i << " moving " << moving;
      EXPECT_FALSE(found.repeated) << "program " << i << " moving " << moving;
      EXPECT_EQ(found.schedules, static_cast<int>(traces.size()))
          << "program " << i << " moving " << moving;
    }
  }
}

// The schedules of a search depend on the program only: moving its objects
// between schedules changes none of them.
TEST(DfsStrategyTest, TheSchedulesDoNotDependOnWhereObjectsSit) {
  static int pool[8];
  auto program_at = [](int shift) {
    auto at = [&](int o, AccessKind access) {
      return PointAccess{ObjectKind::kLock, &pool[(o + shift) % 8], access};
    };
    return Program{{{at(0, AccessKind::kWrite)}, {at(1, AccessKind::kWrite)}},
                   {{at(1, AccessKind::kWrite)}, {at(2, AccessKind::kRead)}},
                   {{at(2, AccessKind::kWrite)}, {at(0, AccessKind::kRead)}}};
  };
  auto schedules = [&](bool moving) {
    DfsStrategy dpor(1);
    std::vector<std::vector<int>> all;
    bool more = true;
    while (more && all.size() < 10000) {
      all.push_back(simulate(
          dpor, program_at(moving ? 3 * static_cast<int>(all.size()) : 0),
          &more));
    }
    return all;
  };
  EXPECT_EQ(schedules(true), schedules(false));
}

TEST(DfsStrategyTest, ComplainsWhenTheProgramIsNotDeterministic) {
  DfsStrategy dpor;
  simulate(dpor, {{{kWriteX}, {kWriteX}}, {{kWriteX}}});
  EXPECT_THROW(simulate(dpor, {{{kWriteX}}}), ScheduleError);
}

TEST(DfsStrategyTest, FactoryNamesAndBounds) {
  EXPECT_EQ(make_strategy("dfs", 1, 3, 0)->name(), "dfs");
  EXPECT_EQ(make_strategy("dfs", 1, 3, DfsStrategy::kUnbounded)->name(), "dfs");
  EXPECT_EQ(make_strategy("plain-dfs", 1, 3, 2)->name(), "plain-dfs");
  EXPECT_THROW(make_strategy("dfs", 1, 3, -2), std::invalid_argument);
  EXPECT_THROW(make_strategy("plain-dfs", 1, 3, -1), std::invalid_argument);
}

// --- on the real scheduler ---------------------------------------------------

using Threads = std::vector<std::function<void()>>;

struct Explored {
  int schedules = 0;
  bool exhausted = false;
  std::set<int> outcomes;
};

template <class Check>
Explored explore(const Threads& threads, Strategy& strategy, Check check) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  Explored explored;
  for (int guard = 0; guard < 10000; ++guard) {
    const RunResult result = scheduler.run(threads, strategy);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    ++explored.schedules;
    explored.outcomes.insert(check());
    if (!result.more_schedules) {
      explored.exhausted = true;
      break;
    }
  }
  return explored;
}

TEST(DporSchedulerTest, ThreadsOnDifferentLocksRunOnce) {
  racelab::Mutex a("a");
  racelab::Mutex b("b");
  int in_a = 0;
  int in_b = 0;
  const Threads threads = {
      [&] {
        racelab::MutexLock lock(a);
        ++in_a;
      },
      [&] {
        racelab::MutexLock lock(b);
        ++in_b;
      },
  };
  DfsStrategy dpor;
  const Explored explored = explore(threads, dpor, [] { return 0; });
  EXPECT_TRUE(explored.exhausted);
  EXPECT_EQ(explored.schedules, 1);
  PlainDfsStrategy plain(10);
  EXPECT_GT(explore(threads, plain, [] { return 0; }).schedules, 1);
}

TEST(DporSchedulerTest, ThreadsOnTheSameLockRunInBothOrders) {
  racelab::Mutex mu("mu");
  std::string order;
  const Threads threads = {
      [&] {
        racelab::MutexLock lock(mu);
        order += 'a';
      },
      [&] {
        racelab::MutexLock lock(mu);
        order += 'b';
      },
  };
  DfsStrategy dpor;
  std::set<std::string> orders;
  const Explored explored = explore(threads, dpor, [&] {
    orders.insert(order);
    order.clear();
    return 0;
  });
  EXPECT_TRUE(explored.exhausted);
  EXPECT_EQ(explored.schedules, 2);
  EXPECT_EQ(orders, (std::set<std::string>{"ab", "ba"}));
}

// The split-lock check-then-act: read under the lock, write under it again;
// two increments can lose one. DPOR finds the lost update, and explores
// fewer schedules than plain dfs for the same outcomes.
TEST(DporSchedulerTest, FindsASplitLockLostUpdate) {
  racelab::Mutex mu("counter.mu");
  int counter = 0;
  auto increment = [&] {
    int seen;
    {
      racelab::MutexLock lock(mu);
      seen = counter;
    }
    racelab::MutexLock lock(mu);
    counter = seen + 1;
  };
  const Threads threads = {increment, increment};
  auto outcome = [&] {
    const int value = counter;
    counter = 0;
    return value;
  };
  DfsStrategy dpor;
  const Explored reduced = explore(threads, dpor, outcome);
  EXPECT_TRUE(reduced.exhausted);
  EXPECT_EQ(reduced.outcomes, (std::set<int>{1, 2}));
  PlainDfsStrategy plain(100);
  const Explored all = explore(threads, plain, outcome);
  EXPECT_EQ(all.outcomes, reduced.outcomes);
  EXPECT_LT(reduced.schedules, all.schedules);
}

}  // namespace
}  // namespace racelab::sched
