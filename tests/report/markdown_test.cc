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

TEST(MarkdownCell, Escapes) {
  EXPECT_EQ(report::markdown_cell("a|b`c<d>&e\nf\r\ng"),
            "a\\|b\\`c&lt;d&gt;&amp;e<br>f<br>g");
  EXPECT_EQ(report::markdown_cell("x_y*z[1]~\\"), "x\\_y\\*z\\[1\\]\\~\\\\");
  EXPECT_EQ(report::markdown_cell("c\x01"), "c\u2401");
}

}  // namespace
}  // namespace racelab
