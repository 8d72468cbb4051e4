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

TEST(HtmlVerified, AVerifiedCaseIsObservedVerifiedAndAnUnfinishedOneClean) {
  const std::string html =
      html_report(testing::verified_and_clean_result(), fixture_options());
  EXPECT_EQ(count(html, "expected verified, observed verified\""), 1) << html;
  EXPECT_EQ(count(html, "\">verified<small>41 schedules"), 1) << html;
  EXPECT_EQ(count(html, "expected clean, observed clean\""), 1) << html;
}

TEST(HtmlSwimlane, ResultRowEndsAHoldWhenTheTraceHasNoReleaseRows) {
  GateResult result;
  CaseResult c;
  c.family = "f";
  c.subject = "f/v";
  c.scenario = "s";
  c.mode = Mode::kControlled;
  c.expected = "deadlock";
  c.expected_kinds = KindSet{FindingKind::kDeadlock};
  c.kinds = {FindingKind::kDeadlock};
  c.runs = 1;
  c.runs_with_finding = 1;
  c.histogram = {{KindSet{FindingKind::kDeadlock}, 1}};
  c.schedule.trace.thread_count = 1;
  c.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "set"},
      {0, 0, sched::TraceKind::kLockAcquired, "lock m", "m"},
      {1, 0, sched::TraceKind::kOperation, "-> ok"},
      {2, 0, sched::TraceKind::kOperation, "get"},
      {2, 0, sched::TraceKind::kLockAcquired, "lock m", "m"}};
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
  c.expected_kinds = KindSet{FindingKind::kDataRace};
  c.kinds = {FindingKind::kDataRace};
  c.runs = 1;
  c.runs_with_finding = 1;
  c.histogram = {{KindSet{FindingKind::kDataRace}, 1}};
  c.schedule.trace.thread_count = 2;
  c.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "set(k1,v) begins"},
      {0, 0, sched::TraceKind::kLockAcquired, "acquired 'mu'", "mu"},
      {0, 0, sched::TraceKind::kSwitch, "preempted at 'lock'"},
      {1, 1, sched::TraceKind::kLockWaited, "blocked on 'mu'", "mu"},
      {2, 0, sched::TraceKind::kLockReleased, "released 'mu'", "mu"},
      {2, 0, sched::TraceKind::kOperation, "-> ok"},
      {3, 1, sched::TraceKind::kException, "threw: boom"}};
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

// Frames as the symbolizer gives them for a store on std::unordered_map.
const std::string kStr =
    "std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> >";

std::vector<Frame> store_stack(int line, const std::string& runner) {
  return {
      {"std::_Hashtable<" + kStr + ", std::pair<" + kStr +
           " const, int>, std::allocator<std::pair<" + kStr +
           " const, int> > >::_M_bucket_index(unsigned long) const",
       "/usr/include/c++/12/bits/hashtable.h", 798, FrameOrigin::kLibrary},
      {"std::unordered_map<" + kStr + ", int, std::hash<" + kStr +
           " >, std::equal_to<" + kStr + " >, std::allocator<std::pair<" +
           kStr + " const, int> > >::operator[](" + kStr + " const&)",
       "/usr/include/c++/12/bits/unordered_map.h", 980, FrameOrigin::kLibrary},
      {"kv::(anonymous namespace)::Store::put(" + kStr + " const&, int)",
       "subjects/kv/store.cc", line, FrameOrigin::kUser},
      {"racelab::kv::Family::execute(racelab::kv::Store&)",
       "scenarios/kv_family.cc", 15, FrameOrigin::kRacelab},
      {runner, "harness/include/racelab/stress_runner.h", 74,
       FrameOrigin::kRacelab},
      {"std::thread::_State_impl<std::thread::_Invoker<std::tuple<int> > "
       ">::_M_run()",
       "/usr/include/c++/12/bits/std_thread.h", 211, FrameOrigin::kLibrary},
      {"__tsan_thread_start_func", "", 0, FrameOrigin::kLibrary},
  };
}

Finding store_race(int thread_a, int thread_b, int line,
                   const std::string& runner) {
  Finding f{
      FindingKind::kDataRace,
      Oracle::kTsan,
      "ThreadSanitizer: data-race: write by thread " +
          std::to_string(thread_a) + " vs previous write by thread " +
          std::to_string(thread_b) + " in Store::put",
      "write of size 8 by thread 1: (the stacks as text)",
      Frame{"kv::(anonymous namespace)::Store::put(" + kStr + " const&, int)",
            "subjects/kv/store.cc", line, FrameOrigin::kUser},
      {}};
  f.accesses.push_back(
      {"write of size 8", thread_a, store_stack(line, runner)});
  f.accesses.push_back(
      {"previous write of size 8", thread_b, store_stack(line, runner)});
  return f;
}

CaseResult store_case(Mode mode, int reports) {
  CaseResult c;
  c.family = "kv";
  c.subject = "kv/store";
  c.scenario = "writers";
  c.mode = mode;
  c.expected = "data_race";
  c.expected_kinds = KindSet{FindingKind::kDataRace};
  c.kinds = {FindingKind::kDataRace};
  c.runs = mode == Mode::kStress ? 20 : 1;
  c.runs_with_finding = c.runs;
  c.schedules = mode == Mode::kStress ? 0 : 5;
  c.first_failing = mode == Mode::kStress ? -1 : 4;
  c.histogram = {{KindSet{FindingKind::kDataRace}, c.runs}};
  for (int i = 0; i < reports; ++i) {
    c.findings.push_back({store_race(i % 7, (i + 1) % 7, 42,
                                     "racelab::run_stress<kv::Family>()"),
                          1});
  }
  return c;
}

TEST(HtmlStacks, TheStoresFrameFirstTheRestFoldedWithNamesAsWritten) {
  GateResult result;
  result.cases.push_back(store_case(Mode::kStress, 1));
  const std::string html = html_report(result, GateOptions{});
  // The store's frame is open, numbered as in the stack, its name as written.
  const std::string own = between(html, "<ol class=\"stack own\">", "</ol>");
  EXPECT_NE(own.find("<li value=\"2\" class=\"user\">kv::Store::put(const "
                     "std::string&amp;, int) <span class=\"file\">subjects/"
                     "kv/store.cc:42</span>"),
            std::string::npos)
      << own;
  EXPECT_EQ(own.find("unordered_map"), std::string::npos);
  // The library and racelab frames are behind a toggle, down to the store's
  // caller; the thread's start is left out.
  const std::string folded =
      between(html, "<details class=\"frames\"", "</details>");
  EXPECT_NE(folded.find("std::unordered_map&lt;std::string, "
                        "int&gt;::operator[](...)"),
            std::string::npos)
      << folded;
  EXPECT_NE(folded.find("std::_Hashtable&lt;...&gt;::_M_bucket_index(...)"),
            std::string::npos);
  EXPECT_NE(folded.find("racelab::kv::Family::execute(...)"),
            std::string::npos);
  EXPECT_EQ(folded.find("_State_impl"), std::string::npos);
  EXPECT_NE(folded.find("3 more frames (the thread's start)"),
            std::string::npos)
      << folded;
  // No spelled-out library type anywhere on the page; the detail text, the
  // stacks again, is not repeated.
  EXPECT_EQ(html.find("basic_string"), std::string::npos);
  EXPECT_EQ(html.find("char_traits"), std::string::npos);
  EXPECT_EQ(html.find("(the stacks as text)"), std::string::npos);
}

TEST(HtmlStacks, SimilarReportsShowOnceAndRepeatedStacksLinkToTheFirst) {
  GateResult result;
  result.cases.push_back(store_case(Mode::kStress, 30));
  result.cases.push_back(store_case(Mode::kControlled, 2));
  const std::string html = html_report(result, GateOptions{});
  // 30 reports of one race (other threads) in the stress case: one finding.
  EXPECT_EQ(count(html, "<li class=\"finding\""), 2);  // one per case
  EXPECT_EQ(count(html, "data-reports=\"30\""), 1);
  const std::string similar =
      between(html, "<details class=\"similar\">", "</details>");
  EXPECT_NE(similar.find("and 29 similar reports at the same store frames"),
            std::string::npos)
      << similar;
  EXPECT_EQ(count(similar, "<li>"), 3);
  EXPECT_NE(similar.find("and 26 more in results.json"), std::string::npos);
  // Four access stacks, all alike: drawn once, the others link to it.
  EXPECT_EQ(count(html, "<details class=\"frames\""), 1);
  EXPECT_EQ(count(html, "<p class=\"same-stack\">"), 3);
  EXPECT_NE(html.find("<a href=\"#stack-1\">stack 1</a>"), std::string::npos);
}

TEST(HtmlStacks, AHundredReportsStayASmallPage) {
  GateResult result;
  CaseResult stress = store_case(Mode::kStress, 100);
  // Distinct races: 20 store lines, 5 reports each.
  for (std::size_t i = 0; i < stress.findings.size(); ++i) {
    stress.findings[i].finding =
        store_race(1, 2, 100 + static_cast<int>(i % 20),
                   "racelab::run_stress<kv::Family>()");
  }
  result.cases.push_back(stress);
  result.cases.push_back(store_case(Mode::kControlled, 100));
  const std::string html = html_report(result, GateOptions{});
  // 6 findings in full per case, the rest one line each.
  EXPECT_EQ(count(html, "<li class=\"finding brief\""), 14);
  EXPECT_LT(html.size(), 60u * 1024) << html.size();
}

TEST(HtmlHeader, SaysWhatRanInEachMode) {
  GateResult result;
  result.cases.push_back(store_case(Mode::kStress, 1));
  result.cases.push_back(store_case(Mode::kControlled, 1));
  GateOptions options;
  options.modes = {Mode::kStress, Mode::kControlled};
  const std::string html = html_report(result, options);
  EXPECT_NE(html.find("stress: 20 runs per case; controlled (pct, up to 1000 "
                      "schedules per search): 1 search per case, 5 schedules "
                      "tried per case; seed 1"),
            std::string::npos)
      << between(html, "<p class=\"meta\">", "</p>");
  EXPECT_EQ(html.find("runs per case; seed"), std::string::npos);
  // Per case: runs for stress, the failing schedule for controlled.
  EXPECT_NE(html.find("<small>20/20 runs</small>"), std::string::npos);
  EXPECT_NE(html.find("<small>schedule 5 of 5</small>"), std::string::npos);
  EXPECT_NE(html.find("<dt>schedules tried</dt><dd>5</dd><dt>first failing "
                      "schedule</dt><dd>5</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("1/1 search</span>"), std::string::npos);
}

TEST(HtmlSwimlane, FoldsLockPairsAndWrapsAtWordBoundaries) {
  GateResult result;
  CaseResult c = store_case(Mode::kControlled, 1);
  c.schedule.trace.thread_count = 2;
  c.schedule.trace.rows = {
      {1, 0, sched::TraceKind::kOperation, "commit(s0,p0.0)"},
      {2, 0, sched::TraceKind::kLockAcquired, "acquired 'checkpoint.mu'",
       "checkpoint.mu"},
      {2, 0, sched::TraceKind::kLockReleased, "released 'checkpoint.mu'",
       "checkpoint.mu"},
      {3, 0, sched::TraceKind::kLockAcquired, "acquired 'checkpoint.mu'",
       "checkpoint.mu"},
      {3, 0, sched::TraceKind::kLockReleased, "released 'checkpoint.mu'",
       "checkpoint.mu"},
      {4, 0, sched::TraceKind::kLockAcquired, "acquired 'checkpoint.mu'",
       "checkpoint.mu"},
      {4, 0, sched::TraceKind::kSwitch, "preempted at 'unlock'"},
      {5, 1, sched::TraceKind::kOperation, "get(s0)"},
      {6, 0, sched::TraceKind::kLockReleased, "released 'checkpoint.mu'",
       "checkpoint.mu"},
      {6, 0, sched::TraceKind::kOperation, "-> 0"},
  };
  result.cases.push_back(c);
  const std::string html = html_report(result, GateOptions{});
  const std::string svg = between(html, "<svg class=\"swimlane\"", "</svg>");
  EXPECT_NE(svg.find("data-rows=\"6\" data-trace-rows=\"10\""),
            std::string::npos)
      << svg;
  // Two pairs in one turn fold into the operation's row, wrapped between
  // words onto a second line; the hold across the switch stays a bar.
  EXPECT_NE(svg.find("<tspan x=\"71\" dy=\"0\">commit(s0,p0.0) "
                     "[locked</tspan><tspan x=\"71\" "
                     "dy=\"13\">&#39;checkpoint.mu&#39; x2]</tspan>"),
            std::string::npos)
      << svg;
  EXPECT_EQ(count(svg, "<rect class=\"lock-hold\""), 1);
  EXPECT_EQ(svg.find("checkpoint.m<"), std::string::npos);
}

TEST(HtmlEscape, EscapesAllFiveAndCleansControls) {
  EXPECT_EQ(report::html_escape("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(report::html_escape("\x01\x7f"), "\u2401\u2421");
}

}  // namespace
}  // namespace racelab
