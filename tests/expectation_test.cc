// Judging a case's observed kinds against its expectation, in both
// directions.
#include "racelab/expectation.h"

#include <gtest/gtest.h>

#include "expectation_rows.h"

namespace racelab {
namespace {

using enum FindingKind;

using testing::buggy;
using testing::fixed;

TEST(ExpectationJudge, FixedStoreCleanIsAMatch) {
  EXPECT_EQ(judge(fixed(), {}), "");
}

TEST(ExpectationJudge, FixedStoreWithAFindingIsAMismatch) {
  EXPECT_EQ(judge(fixed(), {kDataRace}),
            "expected clean, but the case reported data_race");
}

TEST(ExpectationJudge, FixedStoreThatCrashesOrHangsIsAMismatch) {
  EXPECT_NE(judge(fixed(), {kCrash}), "");
  EXPECT_NE(judge(fixed(), {kTimeout}), "");
}

TEST(ExpectationJudge, BuggyStoreCaughtIsAMatch) {
  EXPECT_EQ(judge(buggy({kDataRace}), {kDataRace}), "");
  // One of several kinds is enough.
  EXPECT_EQ(judge(buggy({kNotLinearizable, kInvariantViolation}),
                  {kInvariantViolation}),
            "");
}

TEST(ExpectationJudge, BuggyStoreNotCaughtIsAMismatch) {
  EXPECT_EQ(judge(buggy({kDataRace}), {}),
            "expected data_race but no run found anything");
  EXPECT_EQ(judge(buggy({kDataRace}), {kNotLinearizable}),
            "expected data_race but the case reported only not_linearizable");
}

TEST(ExpectationJudge, FalloutAloneDoesNotCatchTheBug) {
  // Crash and timeout are allowed beside the catching kind, never instead.
  EXPECT_NE(judge(buggy({kDataRace}), {kCrash}), "");
  EXPECT_NE(judge(buggy({kDataRace}), {kTimeout}), "");
}

TEST(ExpectationJudge, FalloutBesideTheCatchIsAllowed) {
  EXPECT_EQ(judge(buggy({kDataRace}), {kDataRace, kCrash, kTimeout}), "");
}

TEST(ExpectationJudge, AStrayKindBesideTheCatchIsAMismatch) {
  EXPECT_EQ(judge(buggy({kDataRace}), {kDataRace, kDeadlock}),
            "caught as expected, but also reported deadlock, which the "
            "expectation does not allow");
  EXPECT_EQ(judge(buggy({kDataRace}, {kCrash, kTimeout, kDeadlock}),
                  {kDataRace, kDeadlock}),
            "");
}

TEST(ExpectationDescribe, CleanOrTheKindsInTheOrderWritten) {
  EXPECT_EQ(describe_expected(fixed()), "clean");
  EXPECT_EQ(describe_expected(buggy({kNotLinearizable, kDataRace})),
            "not_linearizable or data_race");
}

// A fixed row of a seed scenario in controlled mode must be verified: the
// table's rule, what a case must show, and the judgement both ways.
TEST(ExpectationVerified, SeedScenariosOfFixedRowsMustBeVerified) {
  constexpr ExpectationRow kFixedRow = {
      "seed", {Mode::kStress, Mode::kControlled}, {}, {}, "why"};
  constexpr ExpectationRow kGeneratedRow = {
      "generated", {Mode::kControlled}, {}, {}, "why"};
  constexpr ExpectationRow kBuggyRow = {
      "seed", {Mode::kControlled}, {kDataRace}, {kCrash, kTimeout}, "why"};
  const Expectation fixed_row =
      expectation_of("f/fixed", kFixedRow, ScenarioPrograms::kOne);
  EXPECT_TRUE(fixed_row.verified);
  EXPECT_FALSE(
      expectation_of("f/fixed", kGeneratedRow, ScenarioPrograms::kOnePerSeed)
          .verified);
  EXPECT_FALSE(
      expectation_of("f/buggy", kBuggyRow, ScenarioPrograms::kOne).verified);
  // What counts is how many programs the scenario stands for, not its name.
  EXPECT_FALSE(
      expectation_of("f/fixed", kFixedRow, ScenarioPrograms::kOnePerSeed)
          .verified);
  EXPECT_TRUE(expectation_of("f/fixed", kGeneratedRow, ScenarioPrograms::kOne)
                  .verified);
  EXPECT_EQ(describe_expected(fixed_row), "clean (controlled: verified)");
  // Only an exhaustive search in controlled mode is asked to prove it.
  EXPECT_TRUE(must_verify(fixed_row, Mode::kControlled, "dfs"));
  EXPECT_TRUE(must_verify(fixed_row, Mode::kControlled, "plain-dfs"));
  EXPECT_FALSE(must_verify(fixed_row, Mode::kControlled, "pct"));
  EXPECT_FALSE(must_verify(fixed_row, Mode::kStress, "dfs"));
  EXPECT_EQ(describe_expected(fixed_row, true), "verified");
  EXPECT_EQ(describe_expected(fixed_row, false), "clean");
}

TEST(ExpectationVerified, CleanIsNotVerifiedAndViceVersa) {
  Expectation must = fixed();
  must.verified = true;
  EXPECT_EQ(judge(must, true, {}, true), "");
  EXPECT_NE(judge(must, true, {}, false).find("expected verified"),
            std::string::npos);
  // Not asked to prove it (a pct search): clean is enough.
  EXPECT_EQ(judge(must, false, {}, false), "");
  // A verified case whose row does not say verified: the table is stale.
  EXPECT_NE(judge(fixed(), false, {}, true), "");
  // Findings are judged first.
  EXPECT_EQ(judge(must, true, {kDataRace}, false),
            "expected clean, but the case reported data_race");
}

constexpr ExpectationRow kRow = {
    "s",
    {Mode::kStress, Mode::kControlled},
    {kDataRace},
    KindList{kCrash, kTimeout} + KindList{kUseAfterFree},
    "why"};

TEST(ExpectationRow, BecomesAnExpectation) {
  const Expectation e = expectation_of("f/v", kRow, ScenarioPrograms::kOne);
  EXPECT_EQ(e.subject, "f/v");
  EXPECT_EQ(e.scenario, "s");
  EXPECT_EQ(e.modes, (std::vector<Mode>{Mode::kStress, Mode::kControlled}));
  EXPECT_EQ(e.catches, std::vector<FindingKind>{kDataRace});
  EXPECT_EQ(e.may_also,
            (std::vector<FindingKind>{kCrash, kTimeout, kUseAfterFree}));
  EXPECT_EQ(e.why, "why");
}

TEST(ExpectationRow, ListsAreCompileTimeValues) {
  static_assert(kRow.catches.contains(kDataRace));
  static_assert(!kRow.catches.contains(kCrash));
  static_assert(kRow.may_also.size() == 3);
  static_assert(KindList{}.empty());
}

}  // namespace
}  // namespace racelab
