// The command line's own vocabulary: what the truth table asks of each
// oracle, and the demo's anti-patterns checked against the catalog.
#include <gtest/gtest.h>

#include "anti_patterns.h"
#include "catalog.h"
#include "expectation_rows.h"
#include "racelab/demo.h"
#include "racelab/truth_table.h"

namespace racelab {
namespace {

using enum FindingKind;

using testing::buggy;
using testing::fixed;

RunObservation nothing(const RunRequest&) { return {}; }

TEST(ExpectationDuty, TheOnlyNamedOracleMustFire) {
  const Expectation e = buggy({kDeadlock});
  EXPECT_EQ(duty_of(e, {Oracle::kDeadlock}), OracleDuty::kMust);
  EXPECT_EQ(duty_of(e, {Oracle::kTsan}), OracleDuty::kSilent);
  EXPECT_EQ(duty_of(e, {Oracle::kCrash, Oracle::kTimeout}), OracleDuty::kMay);
}

TEST(ExpectationDuty, SeveralNamedOraclesAreOneOf) {
  const Expectation e = buggy({kNotLinearizable, kInvariantViolation},
                              {kCrash, kTimeout, kUseAfterFree});
  EXPECT_EQ(duty_of(e, {Oracle::kLinearizability}), OracleDuty::kOneOf);
  EXPECT_EQ(duty_of(e, {Oracle::kInvariants}), OracleDuty::kOneOf);
  EXPECT_EQ(duty_of(e, {Oracle::kAsan}), OracleDuty::kMay);
  EXPECT_EQ(duty_of(e, {Oracle::kGomap}), OracleDuty::kSilent);
}

TEST(ExpectationDuty, BothGomapKindsNameOneColumn) {
  const Expectation e = buggy({kConcurrentMapWrite, kMapIterationDuringWrite});
  EXPECT_EQ(duty_of(e, {Oracle::kGomap}), OracleDuty::kMust);
}

TEST(ExpectationDuty, ACleanRowIsSilentEverywhere) {
  for (OracleSet column : truth_table_columns()) {
    EXPECT_EQ(duty_of(fixed(), column), OracleDuty::kSilent)
        << column_heading(column);
  }
}

TEST(ExpectationDuty, EveryKindHasAColumn) {
  for (FindingKind k : all_finding_kinds()) {
    int columns = 0;
    for (OracleSet column : truth_table_columns())
      columns += column.contains(oracle_of(k));
    EXPECT_EQ(columns, 1) << to_string(k);
  }
}

TEST(ExpectationDuty, ColumnHeadings) {
  EXPECT_EQ(column_heading({Oracle::kTsan}), "tsan");
  EXPECT_EQ(column_heading({Oracle::kCrash, Oracle::kTimeout}),
            "crash/timeout");
}

TEST(AntiPatterns, NamingAnUnknownCase) {
  Registry r;
  r.add_subject({"f", "f/v", "a store", "src/f/v.cc", false});
  r.add_scenario({"f", "s", "a scenario", "", false});
  r.add_case({"f", "f/v", "s", &nothing});
  const std::vector<std::string> problems = check_anti_patterns(
      r, {{"p", "f/v", "f/missing", "s", "BUG", "", "", ""}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "anti-pattern p names f/missing x s, which is no registered case");
}

TEST(AntiPatterns, TheCatalogsNameItsCases) {
  Registry r;
  register_builtin_catalog(r);
  std::vector<AntiPattern> anti_patterns;
  for (const AntiPatternText& p : anti_pattern_texts()) {
    anti_patterns.push_back({p.name, p.buggy, p.fixed, p.scenario, p.marker,
                             p.summary, p.story, p.oracles});
  }
  EXPECT_FALSE(anti_patterns.empty());
  const std::vector<std::string> problems =
      check_anti_patterns(r, anti_patterns);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

}  // namespace
}  // namespace racelab
