// The reports of `racelab explore` (GateOptions::run_kind): titled by the
// program, each case found, clean or verified with the schedule it was found
// at and its wall time, never a gate's mismatch against an expectation; a
// finding's shrunk schedule shown first; the run kind, the program's path and
// arguments kept through results.json and back (racelab merge). A gate's
// reports keep the gate's words.
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>

#include "racelab/json.h"
#include "racelab/report.h"
#include "report_fixture.h"

namespace racelab {
namespace {

CaseResult explored(const std::string& test, bool found, bool verified) {
  CaseResult c;
  c.family = "program";
  c.subject = "counter --n 3";
  c.program = "/home/user/build/counter";
  c.arguments = {"--n", "3"};
  c.scenario = test;
  c.mode = Mode::kControlled;
  c.expected = "clean";
  c.expected_kinds = KindSet{};
  c.runs = 1;
  c.strategy = verified ? "dfs" : "pct";
  c.budget = 100;
  c.schedules = found ? 7 : 100;
  c.seconds = 2.5;
  if (verified) {
    c.verified = true;
    c.exhaustive_runs = 1;
    c.schedules = 41;
  }
  if (!found) {
    c.histogram = {{KindSet{}, 1}};
    return c;
  }
  c.kinds = {FindingKind::kCrash};
  c.runs_with_finding = 1;
  c.first_failing = 6;
  c.mismatch = "found crash";
  c.histogram = {{KindSet{FindingKind::kCrash}, 1}};
  c.findings.push_back({Finding{FindingKind::kCrash,
                                Oracle::kCrash,
                                "SIGSEGV",
                                "",
                                std::nullopt,
                                {}},
                        1});
  c.schedule.trace.thread_count = 2;
  c.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "load(counter)"},
      {0, 0, sched::TraceKind::kSwitch, "preempted"},
      {1, 1, sched::TraceKind::kOperation, "store(counter)"},
  };
  c.schedule_file = "/tmp/counter.schedule";
  return c;
}

GateOptions explore_options(RunKind kind) {
  GateOptions options;
  options.modes = {Mode::kControlled};
  options.run_kind = kind;
  options.run.request.mode = Mode::kControlled;
  options.run.request.strategy = "pct";
  options.run.request.budget = 100;
  return options;
}

GateResult one_program(bool found) {
  GateResult result;
  result.run_id = "20260101T000000Z-0123456789abcdef";
  result.cases = {explored("explore", found, false)};
  result.cases_total = 1;
  result.mismatches = found ? 1 : 0;
  return result;
}

GateResult three_tests() {
  GateResult result;
  result.run_id = "20260101T000000Z-0123456789abcdef";
  result.cases = {explored("Counter.Races", true, false),
                  explored("Counter.Locked", false, false),
                  explored("Plain.Math", false, true)};
  result.cases_total = 3;
  result.mismatches = 1;
  return result;
}

TEST(ExploreReports, PageReadsAsExplore) {
  const std::string page =
      html_report(one_program(true), explore_options(RunKind::kExploreProgram));
  EXPECT_NE(page.find("<title>racelab explore: counter --n 3: 1 search: 1 "
                      "found, 0 clean, 0 verified</title>"),
            std::string::npos);
  EXPECT_NE(page.find("<h1>racelab explore: counter --n 3</h1>"),
            std::string::npos);
  EXPECT_EQ(page.find("racelab gate"), std::string::npos);
  EXPECT_EQ(page.find("MISMATCH"), std::string::npos);
  EXPECT_EQ(page.find("expected</dt>"), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"found\""), std::string::npos);
  EXPECT_NE(page.find("found crash at schedule 7 of 7 (pct)"),
            std::string::npos);
  EXPECT_NE(page.find("<dt>time</dt><dd>2.500 s</dd>"), std::string::npos);
  // Named by its base name and arguments; the full path is a fact of it.
  EXPECT_NE(page.find("<h3>counter --n 3 <span"), std::string::npos);
  EXPECT_NE(page.find("<dd><code>/home/user/build/counter</code></dd>"),
            std::string::npos);
  const std::size_t trace = page.find("Shrunk failing schedule");
  ASSERT_NE(trace, std::string::npos);
  EXPECT_LT(trace, page.find("<li class=\"finding"));
  EXPECT_LT(trace, page.find("<svg class=\"swimlane\""));
}

TEST(ExploreReports, PageCountsFoundCleanVerifiedTests) {
  const std::string page =
      html_report(three_tests(), explore_options(RunKind::kExploreTests));
  EXPECT_NE(page.find("id=\"headline\">3 tests: 1 found, 1 clean, 1 "
                      "verified</p>"),
            std::string::npos);
  EXPECT_NE(page.find("<h3>Counter.Races <span"), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"clean\""), std::string::npos);
  EXPECT_NE(page.find("data-verdict=\"verified\""), std::string::npos);
  EXPECT_NE(page.find("verified: every schedule that matters, 41 in all"),
            std::string::npos);
}

TEST(ExploreReports, SummaryReadsAsExplore) {
  const std::string md =
      summary_markdown(three_tests(), explore_options(RunKind::kExploreTests));
  EXPECT_EQ(md.rfind("# racelab explore: counter --n 3\n", 0), 0u) << md;
  EXPECT_NE(md.find("**3 tests: 1 found, 1 clean, 1 verified**"),
            std::string::npos);
  EXPECT_EQ(md.find("ISMATCH"), std::string::npos) << md;
  EXPECT_EQ(md.find("expected"), std::string::npos) << md;
  EXPECT_NE(md.find("| Counter.Races | **found** | found crash at schedule 7 "
                    "of 7 (pct) | 2.500 s |"),
            std::string::npos)
      << md;
  const std::size_t trace = md.find("Shrunk failing schedule:");
  ASSERT_NE(trace, std::string::npos);
  EXPECT_LT(trace, md.find("- crash: SIGSEGV"));
}

TEST(ExploreReports, JunitReadsAsExplore) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(
      junit_xml(three_tests(), explore_options(RunKind::kExploreTests))
          .c_str()));
  pugi::xml_node suites = doc.child("testsuites");
  EXPECT_STREQ(suites.attribute("name").value(),
               "racelab explore: counter --n 3");
  pugi::xml_node first = suites.child("testsuite").child("testcase");
  EXPECT_STREQ(first.attribute("name").value(), "Counter.Races");
  EXPECT_STREQ(first.attribute("time").value(), "2.500");
  pugi::xml_node failure = first.child("failure");
  EXPECT_STREQ(failure.attribute("type").value(), "racelab.found");
  EXPECT_STREQ(failure.attribute("message").value(),
               "found crash at schedule 7 of 7 (pct)");
  const std::string body = failure.text().get();
  EXPECT_LT(body.find("load(counter)"), body.find("crash: SIGSEGV"));
  EXPECT_EQ(
      std::string(first.child("system-out").text().get()).find("expected"),
      std::string::npos);
}

TEST(ExploreReports, GateKeepsItsWords) {
  const GateResult gate = testing::fixture_result();
  const GateOptions options = testing::fixture_options();
  EXPECT_NE(html_report(gate, options).find("<h1>racelab gate</h1>"),
            std::string::npos);
  EXPECT_EQ(summary_markdown(gate, options).rfind("# racelab gate\n", 0), 0u);
  EXPECT_NE(junit_xml(gate, options).find("name=\"racelab gate\""),
            std::string::npos);
}

TEST(ExploreReports, RunKindAndProgramSurviveResultsJson) {
  const GateOptions options = explore_options(RunKind::kExploreTests);
  const nlohmann::json doc = results_document(three_tests(), options);
  EXPECT_EQ(doc["settings"]["run_kind"], "explore_tests");
  EXPECT_EQ(doc["cases"][0]["program"], "/home/user/build/counter");
  EXPECT_EQ(doc["cases"][0]["seconds"], 2.5);
  GateOptions back;
  apply_gate_settings(doc["settings"], back);
  EXPECT_EQ(back.run_kind, RunKind::kExploreTests);
  const CaseResult c = case_result_from_json(doc["cases"][0]);
  EXPECT_EQ(c.program, "/home/user/build/counter");
  EXPECT_EQ(c.arguments, (std::vector<std::string>{"--n", "3"}));
  // Results of a racelab that did not record the kind are a gate's.
  nlohmann::json old = doc["settings"];
  old.erase("run_kind");
  apply_gate_settings(old, back);
  EXPECT_EQ(back.run_kind, RunKind::kGate);
}

}  // namespace
}  // namespace racelab
