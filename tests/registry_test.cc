// Registry validation: the expectations against the catalog, the fallout
// rule, and the built-in catalog itself.
#include "racelab/registry.h"

#include <gtest/gtest.h>

#include "catalog.h"

namespace racelab {
namespace {

using enum FindingKind;

RunObservation nothing(const RunRequest&) { return {}; }

// One subject with one case that runs in both modes, each mode expected
// clean.
Registry one_case() {
  Registry r;
  r.add_subject({"f", "f/v", "a store", "src/f/v.cc", false});
  r.add_scenario({"f", "s", "a scenario", "", false});
  r.add_case({"f", "f/v", "s", &nothing});
  r.add_expectation(
      {"f/v", "s", {Mode::kStress, Mode::kControlled}, {}, {}, "why"});
  return r;
}

bool has_problem(const Registry& r, const std::string& part) {
  for (const std::string& p : r.validate()) {
    if (p.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(RegistryValidate, ACompleteTableHasNoProblems) {
  EXPECT_TRUE(one_case().validate().empty());
}

TEST(RegistryValidate, MissingExpectationForAMode) {
  Registry r;
  r.add_subject({"f", "f/v", "a store", "", false});
  r.add_case({"f", "f/v", "s", &nothing});
  r.add_expectation({"f/v", "s", {Mode::kStress}, {}, {}, "why"});
  const std::vector<std::string> problems = r.validate();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "no expectation for f/v x s in controlled mode");
}

TEST(RegistryValidate, ExpectationForAnUnknownCase) {
  Registry r = one_case();
  r.add_expectation({"f/v", "typo", {Mode::kStress}, {}, {}, "why"});
  EXPECT_TRUE(has_problem(r,
                          "expectation for f/v x typo names no registered "
                          "case"));
}

TEST(RegistryValidate, TwoExpectationsForOneMode) {
  Registry r = one_case();
  r.add_expectation({"f/v", "s", {Mode::kStress}, {}, {}, "again"});
  EXPECT_TRUE(has_problem(r, "two expectations for f/v x s in stress mode"));
}

TEST(RegistryValidate, ExpectationForAModeTheCaseDoesNotRunIn) {
  Registry r;
  r.add_case({"f", "f/v", "s", &nothing, {Mode::kControlled}});
  r.add_expectation(
      {"f/v", "s", {Mode::kStress, Mode::kControlled}, {}, {}, "why"});
  EXPECT_TRUE(has_problem(r, "in stress mode, which the case does not run in"));
}

TEST(RegistryValidate, BuggyRowMustAllowCrashAndTimeout) {
  Registry r;
  r.add_case({"f", "f/v", "s", &nothing});
  r.add_expectation({"f/v",
                     "s",
                     {Mode::kStress, Mode::kControlled},
                     {kDataRace},
                     {kCrash},
                     "why"});
  const std::vector<std::string> problems = r.validate();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "expectation for f/v x s catches a bug but does not allow timeout "
            "beside it");
  Registry ok;
  ok.add_case({"f", "f/v", "s", &nothing});
  ok.add_expectation({"f/v",
                      "s",
                      {Mode::kStress, Mode::kControlled},
                      {kDataRace},
                      {kCrash, kTimeout},
                      "why"});
  EXPECT_TRUE(ok.validate().empty());
}

TEST(RegistryValidate, CleanRowNeedsNoFallout) {
  // The rule is for rows that catch something: a fixed store that crashes is
  // a mismatch, so a clean row allows nothing.
  EXPECT_FALSE(has_problem(one_case(), "does not allow"));
}

TEST(RegistryCases, TakeTheirSubjectsSourceFile) {
  Registry r = one_case();
  ASSERT_NE(r.find_case("f/v", "s"), nullptr);
  EXPECT_EQ(r.find_case("f/v", "s")->source, "src/f/v.cc");
}

TEST(RegistryBuiltin, TheCatalogValidates) {
  Registry r;
  register_builtin_catalog(r);
  EXPECT_TRUE(r.validate().empty()) << r.validate().front();
  EXPECT_EQ(r.source_roots(), std::vector<std::string>{"subjects/"});
  for (const CaseSpec& c : r.cases()) {
    EXPECT_TRUE(c.source.starts_with("subjects/")) << c.subject;
    EXPECT_TRUE(c.source.ends_with(".cc")) << c.subject;
  }
}

TEST(RegistryBuiltin, InvariantsCatchWhereTheModelDoes) {
  // A lost or duplicated result is seen by the sequential model or by the
  // scenario's checks: every row that accepts one accepts the other.
  Registry r;
  register_builtin_catalog(r);
  for (const Expectation& e : r.expectations()) {
    for (const std::vector<FindingKind>* kinds : {&e.catches, &e.may_also}) {
      const bool model = std::find(kinds->begin(), kinds->end(),
                                   kNotLinearizable) != kinds->end();
      const bool invariants = std::find(kinds->begin(), kinds->end(),
                                        kInvariantViolation) != kinds->end();
      EXPECT_EQ(model, invariants) << e.subject << " x " << e.scenario;
    }
  }
}

}  // namespace
}  // namespace racelab
