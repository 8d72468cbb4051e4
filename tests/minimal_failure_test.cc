// Tests of the minimal failing program of controlled mode: threads and
// operations a failure does not need are dropped, what it needs is kept, a
// removal that makes another kind of finding appear does not count, and the
// reported (shrunk) schedule replays to the same trace and findings; the
// search hands its finding over before shrinking it, and a shrink that is
// stopped reports the finding as found.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "checkpoint/variants.h"
#include "checkpoint_spec.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/sync.h"

namespace racelab {
namespace {

// A stand-in for a family's runner: operations do nothing but mark their
// start, and the findings depend on the program alone. Two threads with a
// "bug" operation are a not_linearizable finding; a program without any
// "guard" operation also crashes (another kind of finding).
class ProgramJudge {
 public:
  RunObservation run(const std::vector<std::string>& lines,
                     sched::Strategy& strategy) {
    std::vector<std::vector<std::string>> threads;
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
      threads.push_back(split_program_line(lines[i]));
    }
    std::vector<std::function<void()>> bodies;
    for (const auto& ops : threads) {
      bodies.push_back([&ops] {
        for (std::size_t k = 0; k < ops.size(); ++k) {
          sched::ControlledScheduler::begin_operation(static_cast<int>(k));
          yield_point("op");
        }
      });
    }
    sched::RunResult scheduled = scheduler_.run(bodies, strategy);
    std::vector<Finding> findings;
    int bugs = 0;
    bool guarded = false;
    for (const auto& ops : threads) {
      bool bug = false;
      for (const std::string& op : ops) {
        bug |= op == "bug";
        guarded |= op == "guard";
      }
      bugs += bug;
    }
    if (bugs >= 2) {
      findings.push_back({FindingKind::kNotLinearizable,
                          Oracle::kLinearizability,
                          "two bugs",
                          {},
                          std::nullopt,
                          {}});
    }
    if (!guarded) {
      findings.push_back({FindingKind::kCrash,
                          Oracle::kCrash,
                          "unguarded",
                          {},
                          std::nullopt,
                          {}});
    }
    return controlled_internal::observe_schedule(std::move(scheduled),
                                                 std::move(findings), 0);
  }

 private:
  sched::ControlledScheduler scheduler_{
      sched::SchedulerOptions{.substrate = sched::Substrate::kFibers}};
};

TEST(MinimalFailure, DropsUnneededThreadsAndOperationsButNotAGuard) {
  ProgramJudge judge;
  const std::vector<std::string> program = {
      "noise", "noise; guard; bug", "bug; noise", "noise", "noise; noise"};
  sched::ReplayStrategy first({});
  RunObservation failing = judge.run(program, first);
  ASSERT_EQ(failing.findings.size(), 1u);

  int reruns = 0;
  RunObservation minimal = controlled_internal::minimize_failure(
      [&](const std::vector<std::string>& lines, sched::Strategy& strategy) {
        ++reruns;
        return judge.run(lines, strategy);
      },
      program, failing, /*shrink=*/true);
  // Thread 2 and every "noise" go; "guard" stays although the case still
  // fails without it, because without it the run also crashes.
  EXPECT_EQ(minimal.schedule.program,
            (std::vector<std::string>{"", "guard; bug", "bug", ""}));
  ASSERT_EQ(minimal.findings.size(), 1u);
  EXPECT_EQ(minimal.findings[0].kind, FindingKind::kNotLinearizable);
  EXPECT_EQ(minimal.schedules, reruns);
  EXPECT_LE(reruns, controlled_internal::kPreemptionShrinkRuns +
                        controlled_internal::kProgramShrinkRuns + 1);

  // Without shrinking, the program is reported as it was.
  RunObservation whole = controlled_internal::minimize_failure(
      [&](const std::vector<std::string>& lines, sched::Strategy& strategy) {
        return judge.run(lines, strategy);
      },
      program, failing, /*shrink=*/false);
  EXPECT_EQ(whole.schedule.program, program);
}

// The search gives its first finding to on_found before shrinking it; a
// stop request during the shrink (before its first rerun, or after two)
// reports that finding as found, the search's schedules counted apart from
// the shrink's reruns.
TEST(MinimalFailure, AStoppedShrinkReportsTheFindingAsFound) {
  ProgramJudge judge;
  const std::vector<std::string> program = {"", "guard; bug; noise",
                                            "bug; noise", "noise", ""};
  int runs = 0;
  const controlled_internal::ScheduleRunner runner =
      [&](std::uint64_t, const std::vector<std::string>* recorded,
          sched::Strategy& strategy) {
        ++runs;
        return judge.run(recorded != nullptr ? *recorded : program, strategy);
      };
  const controlled_internal::ProgramEncoder encode = [&](std::uint64_t) {
    return program;
  };
  for (const std::optional<int> stop_after :
       {std::optional<int>(0), std::optional<int>(2), std::optional<int>()}) {
    SCOPED_TRACE(stop_after ? *stop_after : -1);
    RunRequest request;
    request.mode = Mode::kControlled;
    request.strategy = "pct";
    request.seed = 1;
    request.budget = 5;
    std::optional<RunObservation> found;
    int runs_at_found = 0;
    request.on_found = [&](const RunObservation& as_found) {
      found = as_found;
      runs_at_found = runs;
    };
    request.stop_requested = [&] {
      return stop_after && found && runs - runs_at_found >= *stop_after;
    };
    runs = 0;
    const RunObservation obs =
        controlled_internal::explore(runner, encode, request, false);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->first_failing, 0);
    EXPECT_EQ(found->schedules, 1);
    EXPECT_EQ(found->schedule.program, program);
    EXPECT_EQ(obs.first_failing, 0);
    EXPECT_EQ(obs.schedules, 1);
    ASSERT_EQ(obs.findings.size(), 1u);
    EXPECT_EQ(obs.findings[0].kind, FindingKind::kNotLinearizable);
    if (stop_after) {
      EXPECT_TRUE(obs.interrupted);
      EXPECT_EQ(obs.shrink_runs, *stop_after);
      EXPECT_EQ(obs.schedule.program, program);
      EXPECT_EQ(obs.schedule.decisions, found->schedule.decisions);
    } else {
      EXPECT_FALSE(obs.interrupted);
      EXPECT_EQ(obs.shrink_runs, runs - 1);
      EXPECT_EQ(obs.schedule.program,
                (std::vector<std::string>{"", "guard; bug", "bug", ""}));
    }
  }
}

RunObservation run_split_lock(const RunRequest& request) {
  static const auto run = spec_case_runner(
      checkpoint::checkpoint_spec().make(&checkpoint::make_split_lock),
      "same_session_first_commit");
  return run(request);
}

// The check-then-act bug needs two first commits to one session: the third
// thread and every thread's commit to the other session are dropped, and
// the scenario's invariants still judge the smaller program.
TEST(MinimalFailure, SplitLockLosesACommitWithTwoThreadsOfOneCommit) {
  RunRequest request;
  request.mode = Mode::kControlled;
  request.strategy = "pct";
  request.seed = 1;
  request.budget = 300;
  RunObservation found = run_split_lock(request);
  ASSERT_FALSE(found.findings.empty());
  bool invariant = false;
  for (const Finding& f : found.findings) {
    if (f.oracle == Oracle::kInvariants) {
      EXPECT_EQ(f.kind, FindingKind::kInvariantViolation) << f.summary;
      invariant = true;
    } else {
      EXPECT_EQ(f.oracle, Oracle::kLinearizability) << f.summary;
      EXPECT_EQ(f.kind, FindingKind::kNotLinearizable) << f.summary;
    }
  }
  EXPECT_TRUE(invariant) << "the scenario's invariants saw nothing";
  const std::vector<std::string>& lines = found.schedule.program;
  ASSERT_EQ(lines.size(), 4u) << "not two threads";
  EXPECT_EQ(found.schedule.trace.thread_count, 2);
  const std::vector<std::string> first = split_program_line(lines[1]);
  const std::vector<std::string> second = split_program_line(lines[2]);
  ASSERT_EQ(first.size(), 1u) << lines[1];
  ASSERT_EQ(second.size(), 1u) << lines[2];
  // Both commit to the same session: "commit(s1,p0.1)", "commit(s1,p1.1)".
  EXPECT_EQ(first[0].substr(0, 10), second[0].substr(0, 10));

  // Its strict replay shows the same trace and the same findings.
  RunRequest replay = request;
  replay.replay_program = found.schedule.program;
  replay.replay_decisions = found.schedule.decisions;
  RunObservation replayed = run_split_lock(replay);
  EXPECT_EQ(replayed.schedule.trace, found.schedule.trace);
  ASSERT_EQ(replayed.findings.size(), found.findings.size());
  for (std::size_t i = 0; i < found.findings.size(); ++i) {
    EXPECT_EQ(replayed.findings[i].summary, found.findings[i].summary);
  }

  // Without shrinking, the scenario's three threads are all there.
  request.shrink = false;
  RunObservation whole = run_split_lock(request);
  EXPECT_EQ(whole.schedule.program.size(), 5u);
}

}  // namespace
}  // namespace racelab
