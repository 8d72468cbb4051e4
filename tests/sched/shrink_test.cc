// Tests of schedule shrinking on an atomicity violation found by a random
// walk with many preemptions, and of program shrinking: threads and
// operations the failure does not need are dropped, those it needs are kept.
#include "racelab/internal/sched/shrink.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/sync.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;

// Thread 0 writes 1 and later checks it still reads 1; threads 1 and 2 write
// 2 at some step. The check fails when a write lands between thread 0's two
// steps: one preemption (at thread 0's yield) is enough.
struct AtomicityViolation {
  racelab::Mutex mu{"value.mu"};
  int value = 0;  // guarded by mu: the bug is atomicity, not a data race
  bool failed = false;

  Threads threads() {
    Threads out;
    out.push_back([this] {
      {
        racelab::MutexLock lock(mu);
        value = 1;
      }
      racelab::yield_point("between");
      racelab::MutexLock lock(mu);
      if (value != 1) failed = true;
    });
    for (int t = 1; t <= 2; ++t) {
      out.push_back([this] {
        for (int i = 0; i < 3; ++i) racelab::yield_point("busy");
        racelab::MutexLock lock(mu);
        value = 2;
      });
    }
    return out;
  }

  // Reruns the program under `strategy`; true when the check failed.
  bool run(ControlledScheduler& scheduler, Strategy& strategy) {
    value = 0;
    failed = false;
    const Threads program = threads();
    const RunResult result = scheduler.run(program, strategy);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    return failed;
  }
};

TEST(ShrinkTest, ReducesAFailingRandomScheduleToOnePreemption) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  AtomicityViolation program;
  const Threads threads = program.threads();

  // A failing schedule with many preemptions, from a random walk.
  RandomStrategy random(31);
  std::vector<int> failing;
  int failing_preemptions = 0;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    program.value = 0;
    program.failed = false;
    const RunResult result = scheduler.run(threads, random);
    if (program.failed && result.preemptions >= 4) {
      failing = result.decisions;
      failing_preemptions = result.preemptions;
    }
  }
  ASSERT_FALSE(failing.empty()) << "no failing schedule with 4+ preemptions";

  int calls = 0;
  const ShrinkResult shrunk = shrink_schedule(failing, [&](Strategy& replay) {
    ++calls;
    return program.run(scheduler, replay);
  });
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_EQ(shrunk.preemptions, 1);
  EXPECT_LT(shrunk.preemptions, failing_preemptions);
  EXPECT_EQ(shrunk.runs, calls);
  EXPECT_LT(shrunk.decisions.size(), failing.size());

  // The shrunk schedule still fails, under a strict replay, with the
  // preemptions it claims.
  ReplayStrategy replay(shrunk.decisions);
  program.value = 0;
  program.failed = false;
  const RunResult result = scheduler.run(threads, replay);
  EXPECT_TRUE(program.failed);
  EXPECT_EQ(result.preemptions, 1);
  EXPECT_FALSE(replay.diverged());
}

TEST(ShrinkTest, ReportsASchedulethatDoesNotReproduce) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  AtomicityViolation program;
  const ShrinkResult shrunk = shrink_schedule({0, 0, 0}, [&](Strategy& replay) {
    return program.run(scheduler, replay);
  });
  EXPECT_FALSE(shrunk.reproduced);
  EXPECT_EQ(shrunk.runs, 1);
  EXPECT_EQ(shrunk.decisions, (std::vector<int>{0, 0, 0}));
}

TEST(ShrinkTest, StopsAtTheRunBudget) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  AtomicityViolation program;
  const Threads threads = program.threads();
  RandomStrategy random(5);
  std::vector<int> failing;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    program.value = 0;
    program.failed = false;
    const RunResult result = scheduler.run(threads, random);
    if (program.failed && result.preemptions >= 3) failing = result.decisions;
  }
  ASSERT_FALSE(failing.empty());
  const ShrinkResult shrunk = shrink_schedule(
      failing, [&](Strategy& replay) { return program.run(scheduler, replay); },
      /*max_runs=*/2);
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_LE(shrunk.runs, 2);
}

// A program of named operations over one guarded value. "check" writes 1 and
// later checks it still reads 1 (the atomicity violation above); "write"
// writes 2; "count" and "idle" touch nothing "check" reads. The run fails when
// the check fails.
struct OperationProgram {
  racelab::Mutex mu{"value.mu"};
  racelab::Mutex count_mu{"count.mu"};
  int value = 0;  // guarded by mu
  int count = 0;  // guarded by count_mu
  bool failed = false;

  void execute(const std::string& op) {
    if (op == "check") {
      {
        racelab::MutexLock lock(mu);
        value = 1;
      }
      racelab::yield_point("between");
      racelab::MutexLock lock(mu);
      if (value != 1) failed = true;
    } else if (op == "write") {
      racelab::MutexLock lock(mu);
      value = 2;
    } else if (op == "count") {
      racelab::MutexLock lock(count_mu);
      ++count;
    } else if (op == "idle") {
      racelab::yield_point("idle");
    } else {
      ADD_FAILURE() << "unknown operation " << op;
    }
  }

  // Runs `program` under `strategy` as the controlled runner does: thread t
  // marks each operation, then stops at its "op" point, then runs it.
  bool run(ControlledScheduler& scheduler, const ShrinkProgram& program,
           Strategy& strategy, RunResult& result) {
    value = 0;
    count = 0;
    failed = false;
    for (const std::string& op : program.setup) execute(op);
    Threads threads;
    for (const auto& ops : program.threads) {
      threads.push_back([this, &ops] {
        for (std::size_t k = 0; k < ops.size(); ++k) {
          ControlledScheduler::begin_operation(static_cast<int>(k));
          racelab::yield_point("op");
          execute(ops[k]);
        }
      });
    }
    result = scheduler.run(threads, strategy);
    EXPECT_EQ(result.status, RunResult::Status::kCompleted);
    for (const std::string& op : program.finale) execute(op);
    return failed;
  }
};

// "setup: a | b c | d | finale: e": the threads' operations between bars.
std::string text(const ShrinkProgram& program) {
  auto ops = [](const std::vector<std::string>& list) {
    std::string out;
    for (const std::string& op : list) out += " " + op;
    return out;
  };
  std::string out = "setup:" + ops(program.setup);
  for (const auto& thread : program.threads) out += " |" + ops(thread);
  return out + " | finale:" + ops(program.finale);
}

TEST(ProgramShrinkTest, DecisionsWithoutAThreadOrAnOperation) {
  // Thread 1's turns go, threads above it move down one.
  EXPECT_EQ(without_thread({0, 1, 2, 1, 0, 2}, 1),
            (std::vector<int>{0, 1, 0, 1}));
  // Only the turns in which thread 0 ran operations [1, 2) go.
  EXPECT_EQ(
      without_operations({0, 0, 1, 0, 0, 1}, {-1, 0, -1, 1, 2, 0}, 0, 1, 2),
      (std::vector<int>{0, 0, 1, 0, 1}));
}

TEST(ProgramShrinkTest, RecordsTheOperationOfEveryDecision) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  OperationProgram program;
  const ShrinkProgram ops{{}, {{"idle", "count"}}, {}};
  ReplayStrategy replay({});
  RunResult run;
  program.run(scheduler, ops, replay, run);
  // start, op 0's point, idle's yield, op 1's point, count's lock and
  // unlock, finish.
  ASSERT_EQ(run.decision_operations.size(), run.decisions.size());
  EXPECT_EQ(run.decision_operations, (std::vector<int>{-1, 0, 0, 1, 1, 1}));
}

TEST(ProgramShrinkTest, DropsWhatTheFailureDoesNotNeedAndKeepsWhatItDoes) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  OperationProgram program;
  // Thread 2 plays no part; neither do "idle" and "count" anywhere, nor the
  // setup and finale operations. Thread 1's "write" is what breaks the check.
  const ShrinkProgram full{{"count"},
                           {{"idle", "check", "count"},
                            {"count", "write", "idle"},
                            {"count", "idle", "count"}},
                           {"idle", "count"}};

  // A failing schedule of the full program, from a random walk.
  RandomStrategy random(7);
  std::vector<int> failing;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    RunResult run;
    if (program.run(scheduler, full, random, run)) failing = run.decisions;
  }
  ASSERT_FALSE(failing.empty()) << "no failing schedule";

  int calls = 0;
  const ProgramShrinkResult shrunk = shrink_program(
      full, failing,
      [&](const ShrinkProgram& candidate, Strategy& strategy, RunResult& run) {
        ++calls;
        return program.run(scheduler, candidate, strategy, run);
      });
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_EQ(shrunk.runs, calls);
  EXPECT_LE(shrunk.runs, 300);
  EXPECT_EQ(text(shrunk.program), "setup: | check | write | finale:");
  EXPECT_EQ(shrunk.preemptions, 1);

  // The shrunk schedule fails on the shrunk program under a strict replay.
  ReplayStrategy replay(shrunk.decisions);
  RunResult run;
  EXPECT_TRUE(program.run(scheduler, shrunk.program, replay, run));
  EXPECT_FALSE(replay.diverged());
  EXPECT_EQ(run.preemptions, 1);
}

TEST(ProgramShrinkTest, KeepsTheProgramWhenTheScheduleDoesNotFail) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  OperationProgram program;
  const ShrinkProgram full{{}, {{"check"}, {"write", "idle"}}, {}};
  // Thread 0 runs to the end first: no write lands inside its check.
  const ProgramShrinkResult shrunk = shrink_program(
      full, {0},
      [&](const ShrinkProgram& candidate, Strategy& strategy, RunResult& run) {
        return program.run(scheduler, candidate, strategy, run);
      });
  EXPECT_FALSE(shrunk.reproduced);
  EXPECT_EQ(shrunk.runs, 1);
  EXPECT_EQ(text(shrunk.program), text(full));
}

TEST(ProgramShrinkTest, StopsAtTheRunBudget) {
  ControlledScheduler scheduler(
      SchedulerOptions{.substrate = Substrate::kFibers});
  OperationProgram program;
  const ShrinkProgram full{
      {}, {{"idle", "check", "idle"}, {"idle", "write", "idle"}}, {}};
  RandomStrategy random(3);
  std::vector<int> failing;
  for (int attempt = 0; attempt < 2000 && failing.empty(); ++attempt) {
    RunResult run;
    if (program.run(scheduler, full, random, run)) failing = run.decisions;
  }
  ASSERT_FALSE(failing.empty());
  int calls = 0;
  const ProgramShrinkResult shrunk = shrink_program(
      full, failing,
      [&](const ShrinkProgram& candidate, Strategy& strategy, RunResult& run) {
        ++calls;
        return program.run(scheduler, candidate, strategy, run);
      },
      /*max_runs=*/3, /*preemption_runs=*/1);
  EXPECT_TRUE(shrunk.reproduced);
  EXPECT_LE(calls, 3);
  EXPECT_EQ(shrunk.runs, calls);
}

}  // namespace
}  // namespace racelab::sched
