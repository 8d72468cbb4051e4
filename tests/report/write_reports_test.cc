// write_results_json() writes every report next to results.json. With
// RACELAB_REPORT_FIXTURE_DIR set, the fixture's reports are written there (for
// check_reports.sh to validate with the schemas and render in Chromium); with
// RACELAB_REPORT_CHECK_DIR set, the reports of a real gate run in that folder
// are checked against its results.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <sstream>
#include <string>

#include "racelab/gate.h"
#include "racelab/report.h"
#include "report_fixture.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

using testing::slurp;

TEST(ReportFixture, WritesEveryReportNextToResultsJson) {
  const char* env = std::getenv("RACELAB_REPORT_FIXTURE_DIR");
  const fs::path dir =
      env != nullptr && *env != '\0'
          ? fs::path(env)
          : fs::temp_directory_path() /
                ("racelab-report-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  GateResult result = testing::fixture_result();
  result.run_id = "20250101T000000Z-0123456789abcdef";
  write_results_json(result, testing::fixture_options(), dir.string());
  for (const char* name : {"results.json", "junit.xml", "results.sarif",
                           "summary.md", "index.html"}) {
    EXPECT_TRUE(fs::exists(dir / name)) << name;
    EXPECT_GT(fs::file_size(dir / name), 100u) << name;
    EXPECT_NE(slurp(dir / name).find(result.run_id), std::string::npos)
        << name << " names the run";
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_NE(entry.path().filename().string().front(), '.')
        << "a temporary was left: " << entry.path();
  }
  EXPECT_EQ(slurp(dir / "summary.md"),
            summary_markdown(result, testing::fixture_options()));

  // Without a run id, the set gets one, the same in every file.
  const fs::path fresh = dir / "fresh";
  write_results_json(testing::fixture_result(), testing::fixture_options(),
                     fresh.string());
  const std::string id = nlohmann::json::parse(slurp(fresh / "results.json"))
                             .at("run_id")
                             .get<std::string>();
  EXPECT_FALSE(id.empty());
  for (const char* name :
       {"junit.xml", "results.sarif", "summary.md", "index.html"}) {
    EXPECT_NE(slurp(fresh / name).find(id), std::string::npos) << name;
  }
  fs::remove_all(fresh);
  if (env == nullptr || *env == '\0') fs::remove_all(dir);
}

// The reports of a real gate run agree with its results.json.
TEST(ReportFixture, GateOutputIsConsistent) {
  const char* env = std::getenv("RACELAB_REPORT_CHECK_DIR");
  if (env == nullptr || *env == '\0')
    GTEST_SKIP() << "RACELAB_REPORT_CHECK_DIR not set";
  const fs::path dir(env);
  const nlohmann::json results =
      nlohmann::json::parse(slurp(dir / "results.json"));
  const std::size_t cases = results.at("cases").size();
  const int mismatches = results.at("mismatches");

  pugi::xml_document junit;
  const pugi::xml_parse_result parsed =
      junit.load_file((dir / "junit.xml").c_str());
  ASSERT_TRUE(parsed) << parsed.description();
  pugi::xml_node suites = junit.child("testsuites");
  EXPECT_EQ(suites.attribute("tests").as_ullong(), cases);
  EXPECT_EQ(suites.attribute("failures").as_int(), mismatches);
  std::size_t testcases = 0;
  for (pugi::xml_node suite : suites.children("testsuite")) {
    for (pugi::xml_node tc : suite.children("testcase")) {
      ++testcases;
      EXPECT_TRUE(tc.attribute("name") && tc.attribute("classname") &&
                  tc.attribute("time"));
    }
  }
  EXPECT_EQ(testcases, cases);

  const nlohmann::json sarif =
      nlohmann::json::parse(slurp(dir / "results.sarif"));
  EXPECT_EQ(sarif.at("version"), "2.1.0");
  int errors = 0;
  for (const nlohmann::json& r : sarif["runs"][0]["results"])
    errors += r["level"] == "error";
  // Every mismatch shows as at least one error, and errors only come from
  // mismatches.
  EXPECT_EQ(errors > 0, mismatches > 0);

  const std::string md = slurp(dir / "summary.md");
  EXPECT_NE(
      md.find(std::to_string(cases) + " cases, " + std::to_string(mismatches)),
      std::string::npos);

  const std::string html = slurp(dir / "index.html");
  std::size_t sections = 0;
  for (std::size_t at = html.find("<section class=\"case ");
       at != std::string::npos;
       at = html.find("<section class=\"case ", at + 1)) {
    ++sections;
  }
  EXPECT_EQ(sections, cases);
}

}  // namespace
}  // namespace racelab
