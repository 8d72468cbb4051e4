// summary.md: a headline, one table row per case whose cells no hostile
// string can split, the mismatches, one section per observed finding kind.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "racelab/report.h"
#include "report_fixture.h"

namespace racelab {
namespace {

using testing::fixture_options;
using testing::fixture_result;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The number of '|' not preceded by an escaping backslash.
int unescaped_pipes(const std::string& line) {
  int pipes = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;  // skip the escaped character
    } else if (line[i] == '|') {
      ++pipes;
    }
  }
  return pipes;
}

class MarkdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    md_ = summary_markdown(fixture_result(), fixture_options());
    lines_ = lines_of(md_);
  }
  std::string md_;
  std::vector<std::string> lines_;
};

TEST_F(MarkdownTest, Headline) {
  EXPECT_NE(md_.find("**5 cases, 2 mismatches**"), std::string::npos) << md_;
}

TEST_F(MarkdownTest, OneTableRowPerCaseWithSevenCells) {
  int rows = 0;
  bool in_table = false;
  for (const std::string& line : lines_) {
    if (line.starts_with("| --- |")) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (!line.starts_with("|")) break;
    ++rows;
    EXPECT_EQ(unescaped_pipes(line), 8) << line;  // 7 cells
  }
  EXPECT_EQ(rows, 5);
}

TEST_F(MarkdownTest, HostileTextIsEscaped) {
  // No raw markup, backtick or line break from the data anywhere.
  EXPECT_EQ(md_.find("<script"), std::string::npos);
  EXPECT_EQ(md_.find("<b>"), std::string::npos);
  EXPECT_NE(md_.find("&lt;script&gt;"), std::string::npos);
  for (const std::string& line : lines_) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;
        continue;
      }
      EXPECT_NE(line[i], '`') << line;
      EXPECT_FALSE(static_cast<unsigned char>(line[i]) < 0x20 &&
                   line[i] != '\t')
          << line;
    }
  }
  // The hostile subject's row: escaped pipe and backticks.
  EXPECT_NE(md_.find("| state/&lt;b&gt;evil&lt;/b&gt;\\|\\`x\\` |"),
            std::string::npos)
      << md_;
}

TEST_F(MarkdownTest, MismatchesSectionListsEachMismatchWithItsReason) {
  const std::size_t section = md_.find("\n## Mismatches\n");
  ASSERT_NE(section, std::string::npos);
  const std::size_t next = md_.find("\n## ", section + 1);
  const std::string body = md_.substr(section, next - section);
  EXPECT_NE(body.find("checkpoint/split\\_lock × "
                      "same\\_session\\_first\\_commit (controlled)"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("expected not\\_linearizable but no run found anything"),
            std::string::npos);
  // A multi-line reason stays on its list item (<br>).
  EXPECT_NE(body.find("<br> line2"), std::string::npos) << body;
}

TEST_F(MarkdownTest, OneSectionPerObservedKind) {
  EXPECT_NE(md_.find("\n### data\\_race\n"), std::string::npos);
  EXPECT_NE(md_.find("\n### deadlock\n"), std::string::npos);
  EXPECT_EQ(md_.find("\n### timeout\n"), std::string::npos);
  EXPECT_NE(md_.find("Not observed in this run:"), std::string::npos);
}

TEST_F(MarkdownTest, TheHeaderSaysWhatRanInEachMode) {
  // The fixture's controlled cases ran 4 searches each; no schedule counts.
  EXPECT_NE(md_.find("Modes: stress, controlled; stress: 4 runs per case; "
                     "controlled (pct, up to 1000 schedules per search): 4 "
                     "searches per case, 0 schedules tried per case; seed 7."),
            std::string::npos)
      << md_;
  EXPECT_NE(md_.find("| runs or schedules |"), std::string::npos);
  EXPECT_NE(md_.find(" | 3/4 runs | "), std::string::npos);
  // A controlled case gives its searches, not runs.
  EXPECT_NE(md_.find("(controlled), 4/4 searches, tsan"), std::string::npos)
      << md_;
}

TEST(MarkdownFindings, ReportsOfOneRaceAreOneItem) {
  GateResult result;
  CaseResult c;
  c.family = "kv";
  c.subject = "kv/store";
  c.scenario = "writers";
  c.mode = Mode::kControlled;
  c.expected = "data_race";
  c.expected_kinds = KindSet{FindingKind::kDataRace};
  c.kinds = {FindingKind::kDataRace};
  c.runs = 1;
  c.runs_with_finding = 1;
  c.schedules = 5;
  c.first_failing = 4;
  for (int t = 0; t < 3; ++t) {
    Finding f{FindingKind::kDataRace,
              Oracle::kTsan,
              "race by thread " + std::to_string(t),
              "",
              Frame{"kv::Store::put(std::__cxx11::basic_string<char, "
                    "std::char_traits<char>, std::allocator<char> > const&)",
                    "subjects/kv/store.cc", 9, FrameOrigin::kUser},
              {}};
    c.findings.push_back({f, 1});
  }
  result.cases.push_back(c);
  const std::string md = summary_markdown(result, GateOptions{});
  EXPECT_NE(md.find("- kv/store × writers (controlled), 1/1 search, tsan: "
                    "race by thread 0 at kv::Store::put(const "
                    "std::string&amp;) (subjects/kv/store.cc:9) (and 2 "
                    "similar reports)"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("race by thread 1"), std::string::npos);
  EXPECT_NE(md.find("| schedule 5 of 5 |"), std::string::npos);
}

TEST(MarkdownVerified, AVerifiedCaseIsObservedVerifiedAndAnUnfinishedOneClean) {
  const std::string md =
      summary_markdown(testing::verified_and_clean_result(), fixture_options());
  EXPECT_NE(md.find("| verified | verified | 41 schedules |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| clean | clean | 1000 schedules |"), std::string::npos)
      << md;
}

TEST(MarkdownHeader, NamesTheSearchOfEachGroupOfControlledCases) {
  const std::string md =
      summary_markdown(testing::verified_and_clean_result(), fixture_options());
  EXPECT_NE(md.find("controlled (dfs, up to 10000 schedules per search: 1 "
                    "case; pct, up to 1000 schedules per search: 1 case): 1 "
                    "search per case, 41 to 1000 schedules tried per case"),
            std::string::npos)
      << md;
}

TEST(MarkdownCell, Escapes) {
  EXPECT_EQ(report::markdown_cell("a|b`c<d>&e\nf\r\ng"),
            "a\\|b\\`c&lt;d&gt;&amp;e<br>f<br>g");
  EXPECT_EQ(report::markdown_cell("x_y*z[1]~\\"), "x\\_y\\*z\\[1\\]\\~\\\\");
  EXPECT_EQ(report::markdown_cell("c\x01"), "c\u2401");
}

}  // namespace
}  // namespace racelab
