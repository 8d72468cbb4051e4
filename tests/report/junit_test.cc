// junit.xml: parses with pugixml, has the counts and attributes GitLab's and
// Jenkins' JUnit readers read, and carries hostile strings exactly (control
// characters replaced by their visible control pictures).
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>

#include "racelab/report.h"
#include "report_fixture.h"

namespace racelab {
namespace {

using testing::fixture_options;
using testing::fixture_result;
using testing::kHostile;
using testing::kHostileCtl;
using testing::kHostileScenario;
using testing::kHostileSubject;

class JunitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    xml_ = junit_xml(fixture_result(), fixture_options());
    const pugi::xml_parse_result parsed = doc_.load_string(xml_.c_str());
    ASSERT_TRUE(parsed) << parsed.description() << " at offset "
                        << parsed.offset;
    root_ = doc_.child("testsuites");
    ASSERT_TRUE(root_);
  }

  pugi::xml_node testcase(const std::string& classname,
                          const std::string& name) {
    for (pugi::xml_node suite : root_.children("testsuite")) {
      for (pugi::xml_node tc : suite.children("testcase")) {
        if (classname == tc.attribute("classname").value() &&
            name == tc.attribute("name").value()) {
          return tc;
        }
      }
    }
    return {};
  }

  std::string xml_;
  pugi::xml_document doc_;
  pugi::xml_node root_;
};

TEST_F(JunitTest, StartsWithAnXmlDeclaration) {
  EXPECT_EQ(xml_.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u)
      << xml_.substr(0, 80);
}

TEST_F(JunitTest, HasNoCharacterXml10Forbids) {
  for (unsigned char c : xml_) {
    if (c < 0x20)
      EXPECT_TRUE(c == '\t' || c == '\n' || c == '\r') << "byte " << int(c);
  }
  // pugixml would write a forbidden character as a reference.
  EXPECT_EQ(xml_.find("&#1;"), std::string::npos);
  EXPECT_EQ(xml_.find("&#x1;"), std::string::npos);
}

TEST_F(JunitTest, TopLevelCountsAndAttributes) {
  EXPECT_STREQ(root_.attribute("tests").value(), "5");
  EXPECT_STREQ(root_.attribute("failures").value(), "2");
  EXPECT_STREQ(root_.attribute("errors").value(), "0");
  EXPECT_STREQ(root_.attribute("skipped").value(), "0");
  EXPECT_STREQ(root_.attribute("time").value(), "5.750");
}

TEST_F(JunitTest, OneTestsuitePerModeWithItsCounts) {
  std::vector<std::string> names;
  for (pugi::xml_node suite : root_.children("testsuite")) {
    names.push_back(suite.attribute("name").value());
    for (const char* attr :
         {"name", "tests", "failures", "errors", "skipped", "time"}) {
      EXPECT_TRUE(suite.attribute(attr)) << attr;
    }
  }
  ASSERT_EQ(names, (std::vector<std::string>{"stress", "controlled"}));
  pugi::xml_node stress =
      root_.find_child_by_attribute("testsuite", "name", "stress");
  pugi::xml_node controlled =
      root_.find_child_by_attribute("testsuite", "name", "controlled");
  EXPECT_STREQ(stress.attribute("tests").value(), "2");
  EXPECT_STREQ(stress.attribute("failures").value(), "0");
  EXPECT_STREQ(stress.attribute("time").value(), "1.750");
  EXPECT_STREQ(controlled.attribute("tests").value(), "3");
  EXPECT_STREQ(controlled.attribute("failures").value(), "2");
  EXPECT_EQ(std::distance(controlled.children("testcase").begin(),
                          controlled.children("testcase").end()),
            3);
  EXPECT_STREQ(stress.child("properties")
                   .find_child_by_attribute("property", "name", "seed")
                   .attribute("value")
                   .value(),
               "7");
}

TEST_F(JunitTest, TestcaseNamesClassnameTimeAndFile) {
  pugi::xml_node tc = testcase("checkpoint/unsynchronized (stress)",
                               "seed_concurrent_sessions");
  ASSERT_TRUE(tc);
  EXPECT_STREQ(tc.attribute("time").value(), "1.250");
  EXPECT_STREQ(tc.attribute("file").value(),
               "subjects/checkpoint/unsynchronized.cc");
  EXPECT_FALSE(tc.child("failure"));
  const std::string out = tc.child_value("system-out");
  EXPECT_NE(out.find("data_race (tsan, 3/4 runs)"), std::string::npos) << out;
  EXPECT_NE(out.find("outcomes: clean=1 data_race=3"), std::string::npos)
      << out;
  EXPECT_TRUE(tc.child("system-err"));
}

TEST_F(JunitTest, MissedBugIsAFailureWithExpectedObservedAndReason) {
  pugi::xml_node tc = testcase("checkpoint/split_lock (controlled)",
                               "same_session_first_commit");
  ASSERT_TRUE(tc);
  pugi::xml_node failure = tc.child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "racelab.missed_finding");
  EXPECT_STREQ(failure.attribute("message").value(),
               "expected not_linearizable, observed clean: expected "
               "not_linearizable but no "
               "run found anything");
}

// A case that must be verified but whose search ran out of budget found
// nothing: the failure says "not verified", never that something was found.
TEST(JunitMismatch, CleanWhereVerifiedIsExpectedIsNotVerified) {
  GateResult result = testing::verified_and_clean_result();
  CaseResult& row = result.cases.front();
  row.verified = false;
  row.exhaustive_runs = 0;
  row.mismatch = "expected verified, but the search ran out of budget";
  pugi::xml_document doc;
  const std::string xml = junit_xml(result, fixture_options());
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  pugi::xml_node failure =
      doc.select_node("//testcase[@name='index_reader_vs_committer']/failure")
          .node();
  ASSERT_TRUE(failure) << xml;
  EXPECT_STREQ(failure.attribute("type").value(), "racelab.not_verified");
}

TEST_F(JunitTest, HostileStringsRoundTrip) {
  // Names and attribute values come back exactly, newlines included.
  pugi::xml_node tc =
      testcase(kHostileSubject + " (controlled)", kHostileScenario);
  ASSERT_TRUE(tc) << xml_;
  pugi::xml_node failure = tc.child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "racelab.unexpected_finding");
  const std::string message = failure.attribute("message").value();
  const std::string expected_message =
      "expected clean, observed data_race,deadlock: expected clean, but the "
      "case reported " +
      kHostile + report::xml_safe(kHostileCtl);
  EXPECT_EQ(message, expected_message);
  // The control characters became control pictures: U+2401 for \x01.
  EXPECT_NE(message.find("ctl\u2401here\u241f and\u2421 \u240b end"),
            std::string::npos);
  // The findings text carries the hostile summary verbatim.
  const std::string out = tc.child_value("system-out");
  EXPECT_NE(out.find("race " + kHostile + report::xml_safe(kHostileCtl)),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("schedule: reports/out/schedules/" + kHostileScenario),
            std::string::npos);
}

TEST_F(JunitTest, EachSuiteSaysWhatRanInItsMode) {
  auto property = [&](const char* suite, const char* name) {
    return std::string(root_.find_child_by_attribute("testsuite", "name", suite)
                           .child("properties")
                           .find_child_by_attribute("property", "name", name)
                           .attribute("value")
                           .value());
  };
  EXPECT_EQ(property("stress", "runs"), "4");
  EXPECT_EQ(property("stress", "ran"), "stress: 4 runs per case; seed 7");
  // A controlled suite has searches and schedules, never "runs".
  EXPECT_EQ(property("controlled", "runs"), "");
  EXPECT_EQ(property("controlled", "budget"), "1000");
  EXPECT_EQ(property("controlled", "strategy"), "pct");
  EXPECT_EQ(property("controlled", "ran"),
            "controlled (pct, up to 1000 schedules per search): 4 searches "
            "per case, 0 schedules tried per case; seed 7");
  pugi::xml_node tc = testcase("checkpoint/unsynchronized (controlled)",
                               "seed_concurrent_sessions");
  const std::string out = tc.child_value("system-out");
  EXPECT_NE(out.find("(4/4 searches with a finding; 0 schedules tried)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("data_race (tsan, 4/4 searches)"), std::string::npos);
}

TEST(JunitEmpty, AnEmptyGateIsStillValid) {
  GateResult empty;
  GateOptions options;
  const std::string xml = junit_xml(empty, options);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str()));
  EXPECT_STREQ(doc.child("testsuites").attribute("tests").value(), "0");
  EXPECT_STREQ(
      doc.child("testsuites").child("testsuite").attribute("name").value(),
      "stress");
}

}  // namespace
}  // namespace racelab
