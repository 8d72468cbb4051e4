// index.html: self-contained, hostile text escaped (no <script> but ours),
// the matrix coloured by verdict, a swimlane for the case with a trace (lanes,
// boxes, lock holds, the finding in red) and a histogram for every case. The
// rendered DOM is checked in headless Chromium by check_reports.sh.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "racelab/report.h"
#include "report_fixture.h"

namespace racelab {
namespace {

using testing::fixture_options;
using testing::fixture_result;

int count(const std::string& haystack, const std::string& needle) {
  int n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

// The text between the first `open` and the next `close` after it.
std::string between(const std::string& text, const std::string& open,
                    const std::string& close) {
  const std::size_t a = text.find(open);
  if (a == std::string::npos) return "";
  const std::size_t b = text.find(close, a);
  return text.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

class HtmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    html_ = html_report(fixture_result(), fixture_options());
  }
  std::string html_;
};

TEST_F(HtmlTest, IsOneSelfContainedDocument) {
  EXPECT_TRUE(html_.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(html_.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(html_.find("http://"),
            html_.find("http://www.w3.org/2000/svg"));  // SVG namespace only
  EXPECT_EQ(html_.find("https://"), std::string::npos);
  EXPECT_EQ(html_.find("<link"), std::string::npos);
  EXPECT_EQ(html_.find(" src="), std::string::npos);
}

TEST_F(HtmlTest, NoScriptFromTheData) {
  EXPECT_EQ(count(html_, "<script"), 1);  // the page's own, at the end
  EXPECT_EQ(html_.find("<b>evil"), std::string::npos);
  EXPECT_GT(html_.find("<script>"), html_.find("id=\"cases\""));
  EXPECT_NE(html_.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
                       "&quot;q&quot;"),
            std::string::npos);
  for (unsigned char c : html_) {
    if (c < 0x20) EXPECT_TRUE(c == '\n' || c == '\t' || c == '\r') << int(c);
  }
  EXPECT_NE(html_.find("ctl\u2401here"), std::string::npos);
}

TEST_F(HtmlTest, AttributesCannotBeBrokenOut) {
  // Every data-subject value is quoted and free of raw quotes and brackets.
  const std::regex attr("data-subject=\"([^\"]*)\"");
  int seen = 0;
  for (auto it = std::sregex_iterator(html_.begin(), html_.end(), attr);
       it != std::sregex_iterator(); ++it) {
    const std::string value = (*it)[1];
    EXPECT_EQ(value.find_first_of("<>'"), std::string::npos) << value;
    ++seen;
  }
  EXPECT_EQ(seen, 5);
}

TEST_F(HtmlTest, MatrixCellsCarryTheVerdict) {
  EXPECT_EQ(
      count(html_, "<td class=\"cell clean-ok\" data-verdict=\"clean-ok\""), 1);
  EXPECT_EQ(
      count(html_, "<td class=\"cell caught-ok\" data-verdict=\"caught-ok\""),
      2);
  EXPECT_EQ(
      count(html_, "<td class=\"cell mismatch\" data-verdict=\"mismatch\""), 2);
  EXPECT_EQ(count(html_, "<table class=\"matrix\""),
            3);  // stress/checkpoint, controlled x2
}

TEST_F(HtmlTest, OneSectionWithAHistogramPerCase) {
  EXPECT_EQ(count(html_, "<section class=\"case "), 5);
  EXPECT_EQ(count(html_, "<svg class=\"histogram\""), 5);
  EXPECT_EQ(count(html_,
                  "<g class=\"bar acceptable\" data-outcome=\"data_race\" "
                  "data-runs=\"3\""),
            1);
  EXPECT_EQ(
      count(html_,
            "<g class=\"bar forbidden\" data-outcome=\"data_race+deadlock\""),
      1);
  EXPECT_EQ(count(html_, "<g class=\"bar missed\" data-outcome=\"clean\""), 2);
  // Unique ids.
  const std::regex id("id=\"(case-[^\"]*)\"");
  std::set<std::string> ids;
  for (auto it = std::sregex_iterator(html_.begin(), html_.end(), id);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(ids.insert((*it)[1]).second) << (*it)[1];
  }
  EXPECT_EQ(ids.size(), 5u);
}

TEST_F(HtmlTest, SwimlaneForTheCaseWithATrace) {
  EXPECT_EQ(count(html_, "<svg class=\"swimlane\""), 1);
  const std::string svg = between(html_, "<svg class=\"swimlane\"", "</svg>");
  ASSERT_FALSE(svg.empty());
  EXPECT_NE(svg.find("data-threads=\"2\""), std::string::npos);
  EXPECT_NE(svg.find("data-rows=\"10\""), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"lane\" data-thread=\"0\">"), 1);
  EXPECT_EQ(count(svg, "<g class=\"lane\" data-thread=\"1\">"), 1);
  EXPECT_EQ(count(svg, "<rect class=\"op\""), 3);
  EXPECT_EQ(count(svg, "<rect class=\"result\""), 1);
  EXPECT_EQ(count(svg, "<rect class=\"lock\""), 3);
  EXPECT_EQ(count(svg, "<rect class=\"wait\""), 1);
  EXPECT_EQ(count(svg, "<line class=\"switch\""), 1);
  EXPECT_EQ(count(svg, "<rect class=\"finding\""), 1);
  EXPECT_EQ(count(svg, "<rect class=\"finding-band\""), 1);
  // Thread 0 holds state.mu from row 1 to its release at row 6; thread 1
  // takes it shared at row 7 and never releases it.
  EXPECT_EQ(count(svg, "<rect class=\"lock-hold\" data-lock=\"state.mu\""), 1);
  EXPECT_EQ(
      count(svg, "<rect class=\"lock-hold unreleased\" data-lock=\"state.mu\""),
      1);
  // Hostile trace text is escaped inside the SVG.
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
}

TEST(HtmlSwimlane, ResultRowEndsAHoldWhenTheTraceHasNoReleaseRows) {
  GateResult result;
  CaseResult c;
  c.family = "f";
  c.subject = "f/v";
  c.scenario = "s";
  c.mode = Mode::kControlled;
  c.expected = "deadlock";
  c.kinds = {FindingKind::kDeadlock};
  c.runs = 1;
  c.runs_with_finding = 1;
  c.histogram = {{"deadlock", 1}};
  c.trace_threads = 1;
  c.trace = {{0, 0, "op", "set"},
             {0, 0, "lock", "lock m"},
             {1, 0, "result", "ok"},
             {2, 0, "op", "get"},
             {2, 0, "lock", "lock m"}};
  c.schedule_file = "x.schedule";
  result.cases.push_back(c);
  const std::string html = html_report(result, GateOptions{});
  EXPECT_EQ(count(html, "<rect class=\"lock-hold\" data-lock=\"m\""), 1);
  EXPECT_EQ(count(html, "<rect class=\"lock-hold unreleased\" data-lock=\"m\""),
            1);
}

TEST(HtmlSwimlane, DrawsTheControlledSchedulersVocabulary) {
  GateResult result;
  CaseResult c;
  c.family = "f";
  c.subject = "f/v";
  c.scenario = "s";
  c.mode = Mode::kControlled;
  c.expected = "data_race";
  c.kinds = {FindingKind::kDataRace};
  c.runs = 1;
  c.runs_with_finding = 1;
  c.histogram = {{"data_race", 1}};
  c.trace_threads = 2;
  c.trace = {{0, 0, "operation", "set(k1,v) begins"},
             {0, 0, "lock acquired", "acquired 'mu'"},
             {0, 0, "switch", "preempted at 'lock'"},
             {1, 1, "lock waited", "blocked on 'mu'"},
             {2, 0, "lock released", "released 'mu'"},
             {2, 0, "operation", "-> ok"},
             {3, 1, "exception", "threw: boom"}};
  result.cases.push_back(c);
  const std::string html = html_report(result, GateOptions{});
  EXPECT_EQ(count(html, "<rect class=\"op\""), 1);
  EXPECT_EQ(count(html, "<rect class=\"result\""), 1);
  EXPECT_EQ(count(html, "<rect class=\"lock\""), 2);
  EXPECT_EQ(count(html, "<rect class=\"wait\""), 1);
  EXPECT_EQ(count(html, "<line class=\"switch\""), 1);
  EXPECT_EQ(count(html, "<rect class=\"finding\""), 1);
  EXPECT_EQ(count(html, "<rect class=\"lock-hold\" data-lock=\"mu\""), 1);
  EXPECT_EQ(count(html, "<g class=\"lane\" data-thread=\"1\">"), 1);
}

TEST(HtmlEscape, EscapesAllFiveAndCleansControls) {
  EXPECT_EQ(report::html_escape("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(report::html_escape("\x01\x7f"), "\u2401\u2421");
}

}  // namespace
}  // namespace racelab
