// docs/defaults.md against racelab/defaults.h: the table's Default column
// says what the header holds, row by row, so neither changes alone.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "racelab/defaults.h"

namespace racelab {
namespace {

// Setting -> Default, from the Markdown table of docs/defaults.md.
std::map<std::string, std::string> documented_defaults() {
  std::ifstream in(std::string(RACELAB_SOURCE_DIR) + "/docs/defaults.md");
  std::map<std::string, std::string> table;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells = absl::StrSplit(line, '|');
    if (cells.size() < 4) continue;
    table[std::string(absl::StripAsciiWhitespace(cells[1]))] =
        std::string(absl::StripAsciiWhitespace(cells[2]));
  }
  return table;
}

std::string substrate_text(sched::Substrate s) {
  return s == sched::Substrate::kOsThreads ? "OS threads" : "fibers";
}

TEST(DefaultsDoc, EveryRowSaysWhatTheHeaderHolds) {
  const std::map<std::string, std::string> doc = documented_defaults();
  ASSERT_FALSE(doc.empty()) << "docs/defaults.md has no table";
  const std::map<std::string, std::string> header = {
      {"strategy", absl::StrCat("`", defaults::kStrategy, "`")},
      {"seed", absl::StrCat(defaults::kSeed)},
      {"depth (pct)", absl::StrCat(defaults::kDepth)},
      {"preemptions (dfs bound)", absl::StrCat(defaults::kPreemptions)},
      {"budget (schedules per search)", absl::StrCat(defaults::kBudget)},
      {"budget of a search that must prove a case verified",
       absl::StrCat(defaults::kVerifyBudget, " (`kVerifyBudget`)")},
      {"threads substrate", substrate_text(defaults::kThreads)},
      {"stress runs", absl::StrCat(defaults::kStressRuns)},
      {"stress pause (a slow reader's)",
       absl::StrCat(defaults::kPauseUs, " µs")},
      {"hang (no scheduling decision, no operation step)",
       absl::StrCat(defaults::kHangSeconds, " s")},
      {"budget of `racelab explore -- ./program`",
       absl::StrCat(defaults::kProgramBudget)},
  };
  for (const auto& [setting, value] : header) {
    auto row = doc.find(setting);
    ASSERT_NE(row, doc.end())
        << "docs/defaults.md has no row '" << setting << "'";
    EXPECT_EQ(row->second, value) << setting;
  }
  // Every documented setting is one the header holds (the header row and the
  // separator aside).
  for (const auto& [setting, value] : doc) {
    if (setting == "Setting" || setting.rfind("---", 0) == 0) continue;
    EXPECT_TRUE(header.count(setting))
        << "docs/defaults.md documents '" << setting
        << "', which this test does not know: add it here and to defaults.h";
  }
}

}  // namespace
}  // namespace racelab
