// results.sarif: parses with nlohmann, has the SARIF 2.1.0 structure code
// scanning needs (schema, version, driver, rules, results with locations and
// stable partialFingerprints), the right levels, and keeps hostile strings
// exact. Validation against the official SARIF schema happens in
// check_reports.sh (ajv).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "racelab/report.h"
#include "report_fixture.h"

namespace racelab {
namespace {

using nlohmann::json;
using testing::fixture_options;
using testing::fixture_result;
using testing::kHostile;
using testing::kHostileCtl;
using testing::kHostileFunction;
using testing::kHostileSubject;

class SarifTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Round-trip through text, as a consumer reads the file.
    const std::string text =
        sarif_log(fixture_result(), fixture_options()).dump(2);
    log_ = json::parse(text);
    ASSERT_EQ(log_.at("runs").size(), 1u);
    run_ = log_["runs"][0];
  }

  std::vector<json> results_of(const std::string& rule) {
    std::vector<json> out;
    for (const json& r : run_.at("results")) {
      if (r.at("ruleId") == rule) out.push_back(r);
    }
    return out;
  }

  json log_;
  json run_;
};

TEST_F(SarifTest, TopLevel) {
  EXPECT_EQ(log_.at("version"), "2.1.0");
  EXPECT_NE(
      log_.at("$schema").get<std::string>().find("sarif-schema-2.1.0.json"),
      std::string::npos);
  const json& driver = run_.at("tool").at("driver");
  EXPECT_EQ(driver.at("name"), "racelab");
  EXPECT_TRUE(
      driver.at("informationUri").get<std::string>().starts_with("https://"));
}

TEST_F(SarifTest, SaysWhatRanInEachModesUnit) {
  EXPECT_EQ(run_.at("properties").at("ran"),
            "stress: 4 runs per case; controlled (pct, up to 1000 schedules "
            "per search): 4 searches per case, 0 schedules tried per case; "
            "seed 7");
  EXPECT_FALSE(run_.at("properties").contains("runs"));
  // The race seen in both modes counts each in its own unit.
  for (const json& r : results_of("racelab/data_race")) {
    if (r.at("properties").at("subject") != "checkpoint/unsynchronized")
      continue;
    EXPECT_NE(r.at("message").at("text").get<std::string>().find(
                  "; stress: 3/4 runs, controlled: 4/4 searches; expected "
                  "data_race)"),
              std::string::npos)
        << r.at("message").dump();
  }
}

TEST_F(SarifTest, OneRulePerFindingKindPlusTheMissedRule) {
  const json& rules = run_.at("tool").at("driver").at("rules");
  ASSERT_EQ(rules.size(), all_finding_kinds().size() + 1);
  std::set<std::string> ids;
  for (const json& rule : rules) {
    ids.insert(rule.at("id").get<std::string>());
    EXPECT_FALSE(
        rule.at("shortDescription").at("text").get<std::string>().empty());
    const std::string help = rule.at("helpUri");
    EXPECT_TRUE(help.starts_with("https://")) << help;
    EXPECT_NE(help.find("/docs/"), std::string::npos) << help;
  }
  EXPECT_TRUE(ids.count("racelab/data_race"));
  EXPECT_TRUE(ids.count("racelab/map_iteration_during_write"));
  EXPECT_TRUE(ids.count("racelab/expected_finding_missing"));
}

TEST_F(SarifTest, EveryResultReferencesItsRuleAndHasALocationAndFingerprint) {
  const json& rules = run_.at("tool").at("driver").at("rules");
  for (const json& r : run_.at("results")) {
    const int index = r.at("ruleIndex");
    EXPECT_EQ(rules.at(index).at("id"), r.at("ruleId"));
    EXPECT_TRUE(r.at("level") == "error" || r.at("level") == "note")
        << r.dump();
    EXPECT_FALSE(r.at("message").at("text").get<std::string>().empty());
    const json& physical = r.at("locations").at(0).at("physicalLocation");
    EXPECT_EQ(physical.at("artifactLocation").at("uriBaseId"), "%SRCROOT%");
    EXPECT_GE(physical.at("region").at("startLine").get<int>(), 1);
    EXPECT_EQ(r.at("partialFingerprints")
                  .at("racelabFinding/v1")
                  .get<std::string>()
                  .size(),
              32u);
  }
}

TEST_F(SarifTest, ExpectedFindingIsANoteWithItsSubjectFrame) {
  // Cases 1 and 5 report the same race (same rule, subject, scenario, file,
  // function; other line and mode): one result.
  std::vector<json> races;
  for (const json& r : results_of("racelab/data_race")) {
    if (r.at("properties").at("subject") == "checkpoint/unsynchronized")
      races.push_back(r);
  }
  ASSERT_EQ(races.size(), 1u);
  const json& r = races[0];
  EXPECT_EQ(r.at("level"), "note");
  EXPECT_EQ(r.at("properties").at("modes"), json({"stress", "controlled"}));
  EXPECT_EQ(r.at("properties").at("runs"), 7);
  const json& physical = r.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(physical.at("artifactLocation").at("uri"),
            "subjects/checkpoint/unsynchronized.cc");
  EXPECT_EQ(physical.at("region").at("startLine"), 42);
  EXPECT_EQ(r.at("locations")
                .at(0)
                .at("logicalLocations")
                .at(0)
                .at("fullyQualifiedName"),
            kHostileFunction);
  // The other access's first project frame is a related location.
  ASSERT_TRUE(r.contains("relatedLocations"));
  ASSERT_EQ(r.at("relatedLocations").size(), 1u);
  const json& related = r.at("relatedLocations").at(0);
  EXPECT_EQ(related.at("id"), 1);
  EXPECT_EQ(related.at("physicalLocation").at("region").at("startLine"), 57);
  EXPECT_NE(related.at("message").at("text").get<std::string>().find(
                "previous read of size 8"),
            std::string::npos);
  ASSERT_EQ(r.at("stacks").size(), 2u);
  // A system header is an absolute file URI, outside %SRCROOT%.
  EXPECT_EQ(r.at("stacks")[0]["frames"][0]["location"]["physicalLocation"]
                          ["artifactLocation"]["uri"],
            "file:///usr/include/c%2B%2B/12/bits/vector.tcc");
  // Hostile text is kept exactly in the property bag.
  EXPECT_EQ(r.at("properties").at("summary"),
            "ThreadSanitizer: data race " + kHostile);
}

TEST_F(SarifTest,
       UnexpectedFindingsAreErrorsAndFramelessOnesPointAtTheSubjectSource) {
  std::vector<json> hostile;
  for (const json& r : run_.at("results")) {
    if (r.at("properties").at("subject") == kHostileSubject)
      hostile.push_back(r);
  }
  ASSERT_EQ(hostile.size(), 2u);  // the race and the deadlock
  for (const json& r : hostile) EXPECT_EQ(r.at("level"), "error") << r.dump();
  const json& race = hostile[0];
  EXPECT_EQ(race.at("ruleId"), "racelab/data_race");
  EXPECT_EQ(race.at("properties").at("summary"),
            "race " + kHostile + kHostileCtl);
  const json& physical = race.at("locations").at(0).at("physicalLocation");
  // subjects/state/<b>evil</b>|`x`.cc, percent-encoded.
  EXPECT_EQ(physical.at("artifactLocation").at("uri"),
            "subjects/state/%3Cb%3Eevil%3C/b%3E%7C%60x%60.cc");
  EXPECT_EQ(physical.at("region").at("startLine"), 1);
  // Braces and brackets in message text are escaped per SARIF 3.11.
  const std::string text = race.at("message").at("text");
  EXPECT_EQ(text.find("]]>"), std::string::npos) << text;
  EXPECT_NE(text.find("\\]\\]>"), std::string::npos) << text;
  // A frame without a line points at line 1 of its file.
  const json& deadlock = hostile[1];
  EXPECT_EQ(deadlock.at(
                "locations")[0]["physicalLocation"]["artifactLocation"]["uri"],
            "subjects/state/hold_lock.cc");
  EXPECT_EQ(
      deadlock.at("locations")[0]["physicalLocation"]["region"]["startLine"],
      1);
}

TEST_F(SarifTest, MissedBugIsAnErrorOfItsOwnRule) {
  const std::vector<json> missed =
      results_of("racelab/expected_finding_missing");
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].at("level"), "error");
  EXPECT_EQ(missed[0].at("properties").at("subject"), "checkpoint/split_lock");
  EXPECT_EQ(
      missed[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "subjects/checkpoint/split_lock.cc");
}

TEST_F(SarifTest, FingerprintsAreDistinctPerResult) {
  std::set<std::string> seen;
  for (const json& r : run_.at("results")) {
    EXPECT_TRUE(
        seen.insert(r["partialFingerprints"]["racelabFinding/v1"]).second)
        << r.dump();
  }
}

TEST(Fingerprint, IgnoresLinesAndModesButNotIdentity) {
  const std::string a = report::finding_fingerprint("racelab/data_race", "s/v",
                                                    "scn", "f.cc", "fn");
  EXPECT_EQ(a, report::finding_fingerprint("racelab/data_race", "s/v", "scn",
                                           "f.cc", "fn"));
  EXPECT_NE(a, report::finding_fingerprint("racelab/data_race", "s/v", "scn",
                                           "f.cc", "fn2"));
  EXPECT_NE(a, report::finding_fingerprint("racelab/deadlock", "s/v", "scn",
                                           "f.cc", "fn"));
  EXPECT_NE(a, report::finding_fingerprint("racelab/data_race", "s/v", "scn2",
                                           "f.cc", "fn"));
  // Field boundaries matter: "ab"+"c" is not "a"+"bc".
  EXPECT_NE(report::finding_fingerprint("r", "ab", "c", "", ""),
            report::finding_fingerprint("r", "a", "bc", "", ""));
  // A pinned value: changing the scheme breaks GitHub's alert tracking, so it
  // must come with a new key (racelabFinding/v2).
  EXPECT_EQ(a, "84465a1f5dabb69bb806fbafa719ad0d");
}

TEST(Sarif, InvalidUtf8IsReplacedWhenWritten) {
  GateResult result = fixture_result();
  result.cases[0].findings[0].finding.summary = "bad \xff\xfe utf8";
  const std::string text =
      sarif_log(result, fixture_options())
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  EXPECT_TRUE(json::accept(text));
}

}  // namespace
}  // namespace racelab
