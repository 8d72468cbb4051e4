// How the runs of a case become its result (add_run): runs and schedules
// counted, one histogram key per set of kinds, the kinds observed, findings
// merged by kind and summary and counted once per run, the first failing
// run's log, schedule and first failing schedule.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "racelab/runner.h"

namespace racelab {
namespace {

Finding finding(FindingKind kind, const std::string& summary) {
  return {kind, Oracle::kTsan, summary, "", std::nullopt, {}};
}

RunObservation run_with(std::vector<Finding> findings, int schedules = 0) {
  RunObservation run;
  run.findings = std::move(findings);
  run.schedules = schedules;
  return run;
}

// A run whose search failed at schedule `first_failing`, with a trace.
RunObservation failing_search(int first_failing, const std::string& marker) {
  RunObservation run =
      run_with({finding(FindingKind::kNotLinearizable, "lost commit")},
               first_failing + 1);
  run.first_failing = first_failing;
  run.schedule.program = {"", "commit(" + marker + ")", ""};
  run.schedule.decisions = {0, 0};
  run.schedule.preemptions = 1;
  run.schedule.trace.thread_count = 1;
  run.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "commit(" + marker + ")"}};
  run.log = "log of " + marker;
  return run;
}

TEST(CaseAggregation, CleanRunsCountAsCleanInTheHistogram) {
  CaseResult result;
  add_run(result, run_with({}, 10));
  add_run(result, run_with({}, 7));
  EXPECT_EQ(result.runs, 2);
  EXPECT_EQ(result.runs_with_finding, 0);
  EXPECT_EQ(result.schedules, 17);
  EXPECT_EQ(result.histogram, (std::map<KindSet, int>{{KindSet{}, 2}}));
  EXPECT_TRUE(result.kinds.empty());
  EXPECT_EQ(result.observed(), "clean");
  EXPECT_TRUE(result.findings.empty());
  EXPECT_TRUE(result.first_failure_log.empty());
  EXPECT_EQ(result.first_failing, -1);
  EXPECT_TRUE(result.schedule.empty());
}

// A case is verified when every run's search was exhausted without a
// finding; one run that only spent its budget makes it clean.
TEST(CaseAggregation, VerifiedOnlyWhenEverySearchWasExhausted) {
  RunObservation exhausted = run_with({}, 151);
  exhausted.exhaustive = true;
  CaseResult all;
  add_run(all, exhausted);
  add_run(all, exhausted);
  EXPECT_TRUE(all.verified);
  EXPECT_EQ(all.observed(), "verified");
  CaseResult mixed;
  add_run(mixed, exhausted);
  add_run(mixed, run_with({}, 1000));
  EXPECT_FALSE(mixed.verified);
  EXPECT_EQ(mixed.observed(), "clean");
  CaseResult failing;
  RunObservation found = failing_search(3, "a");
  found.exhaustive = true;  // exhausted, but not clean
  add_run(failing, found);
  EXPECT_FALSE(failing.verified);
}

TEST(CaseAggregation, OneHistogramKeyPerSetOfKindsAndKindsInEnumOrder) {
  CaseResult result;
  add_run(result, run_with({finding(FindingKind::kTimeout, "hung"),
                            finding(FindingKind::kDataRace, "race a")}));
  add_run(result, run_with({finding(FindingKind::kDataRace, "race a"),
                            finding(FindingKind::kTimeout, "hung")}));
  add_run(result, run_with({finding(FindingKind::kDataRace, "race b")}));
  add_run(result, run_with({}));
  EXPECT_EQ(result.runs, 4);
  EXPECT_EQ(result.runs_with_finding, 3);
  const KindSet both{FindingKind::kDataRace, FindingKind::kTimeout};
  EXPECT_EQ(to_string(both), "data_race+timeout");
  EXPECT_EQ(
      result.histogram,
      (std::map<KindSet, int>{
          {both, 2}, {KindSet{FindingKind::kDataRace}, 1}, {KindSet{}, 1}}));
  EXPECT_EQ(result.kinds, (std::vector<FindingKind>{FindingKind::kDataRace,
                                                    FindingKind::kTimeout}));
  EXPECT_EQ(result.observed(), "data_race,timeout");
}

TEST(CaseAggregation, FindingsMergeByKindAndSummaryCountedOncePerRun) {
  CaseResult result;
  // The same race reported twice in one run counts once for that run.
  add_run(result, run_with({finding(FindingKind::kDataRace, "race a"),
                            finding(FindingKind::kDataRace, "race a"),
                            finding(FindingKind::kDataRace, "race b")}));
  add_run(result, run_with({finding(FindingKind::kDataRace, "race a")}));
  add_run(result, run_with({finding(FindingKind::kCrash, "race a")}));
  ASSERT_EQ(result.findings.size(), 3u);
  EXPECT_EQ(result.findings[0].finding.summary, "race a");
  EXPECT_EQ(result.findings[0].finding.kind, FindingKind::kDataRace);
  EXPECT_EQ(result.findings[0].runs, 2);
  EXPECT_EQ(result.findings[1].finding.summary, "race b");
  EXPECT_EQ(result.findings[1].runs, 1);
  EXPECT_EQ(result.findings[2].finding.kind, FindingKind::kCrash);
  EXPECT_EQ(result.findings[2].runs, 1);
}

TEST(CaseAggregation, TheFirstFailingRunGivesLogScheduleAndFirstFailing) {
  CaseResult result;
  add_run(result, run_with({}, 5));
  RunObservation no_trace =
      run_with({finding(FindingKind::kDataRace, "race")}, 3);
  no_trace.log = "log without a trace";
  no_trace.first_failing = 2;
  add_run(result, no_trace);
  add_run(result, failing_search(4, "first"));
  add_run(result, failing_search(1, "second"));
  EXPECT_EQ(result.runs, 4);
  EXPECT_EQ(result.schedules, 5 + 3 + 5 + 2);
  // The log is the first failing run's; the schedule the first one that
  // has a trace.
  EXPECT_EQ(result.first_failure_log, "log without a trace");
  EXPECT_EQ(result.first_failing, 4);
  EXPECT_EQ(result.schedule.program[1], "commit(first)");
  EXPECT_EQ(result.schedule.preemptions, 1);
  ASSERT_EQ(result.schedule.trace.rows.size(), 1u);
  EXPECT_EQ(result.schedule.trace.rows[0].text, "commit(first)");
}

TEST(CaseAggregation, AScheduleOfACleanRunIsNotTheFailingSchedule) {
  CaseResult result;
  RunObservation clean = failing_search(0, "clean");
  clean.findings.clear();
  add_run(result, clean);
  EXPECT_TRUE(result.schedule.empty());
  EXPECT_EQ(result.first_failing, -1);
}

}  // namespace
}  // namespace racelab
