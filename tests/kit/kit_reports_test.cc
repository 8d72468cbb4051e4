// racelab_kit_reports: linked into a test binary, it writes the gate's five
// reports for the kit tests into $RACELAB_REPORT_DIR, with the user's own
// source locations, and several processes writing one folder end with the
// cases of all of them.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "racelab/kit.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUserFile = "/home/team/ring/split_check_ring.cc";

CheckResult failing_result() {
  CheckResult r;
  r.schedules = 3;
  r.first_failing = 2;
  Finding f{
      FindingKind::kDataRace,
      Oracle::kTsan,
      "write of size 4 by thread 1 vs previous read by thread 0",
      "WARNING: ThreadSanitizer: data race",
      Frame{"SplitCheckRing::push(int)", kUserFile, 31, FrameOrigin::kUser},
      {}};
  r.findings.push_back(f);
  r.schedule.program = {"", "push(1)", "pop", ""};
  r.schedule.decisions = {0, 1, 0};
  r.schedule.trace.thread_count = 2;
  r.schedule.trace.rows.emplace_back(0, 0, sched::TraceKind::kOperation,
                                     "push(1)");
  r.log = "WARNING: ThreadSanitizer: data race\n";
  r.message = "ring/split x push_pop: FAILED\n";
  return r;
}

void tell(const std::string& test, const CheckResult& result, bool caught,
          bool passed) {
  KitTestRecord record;
  record.test = test;
  record.source = "/home/team/tests/ring_caught_test.cc";
  record.family = "ring";
  record.store = "ring/split_check";
  record.kit_case = {0, "push_pop_race", Mode::kControlled, std::nullopt};
  record.expect_caught = caught;
  record.passed = passed;
  record.result = &result;
  notify_kit_test(record);
}

class KitReportsTest : public testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    ::setenv("RACELAB_REPORT_DIR", root_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("RACELAB_REPORT_DIR");
    ScratchDirTest::TearDown();
  }
  nlohmann::json results() {
    return nlohmann::json::parse(testing::slurp(root_ / "results.json"));
  }
};

TEST_F(KitReportsTest, WritesTheFiveReportsWithTheUsersFile) {
  const CheckResult r = failing_result();
  tell("Racelab/Split_RacelabCaught.Caught/push_pop_race", r, true, true);
  for (const char* name : {"results.json", "junit.xml", "results.sarif",
                           "summary.md", "index.html"}) {
    EXPECT_TRUE(fs::exists(root_ / name)) << name;
  }
  const nlohmann::json doc = results();
  ASSERT_EQ(doc.at("cases").size(), 1u);
  EXPECT_EQ(doc.at("cases")[0].at("subject"), "ring/split_check");
  EXPECT_EQ(doc.at("mismatches"), 0);
  EXPECT_NE(testing::slurp(root_ / "results.sarif").find("split_check_ring.cc"),
            std::string::npos);
  EXPECT_NE(testing::slurp(root_ / "results.json").find(kUserFile),
            std::string::npos);
  EXPECT_NE(testing::slurp(root_ / "index.html").find("split_check_ring.cc"),
            std::string::npos);
}

TEST_F(KitReportsTest, AFailedTestIsAMismatch) {
  const CheckResult r = failing_result();
  tell("Racelab/Split_RacelabClean.Clean/push_pop_race", r, false, false);
  const nlohmann::json doc = results();
  EXPECT_EQ(doc.at("mismatches"), 1);
  EXPECT_NE(testing::slurp(root_ / "junit.xml").find("<failure"),
            std::string::npos);
}

TEST_F(KitReportsTest, ProcessesWritingOneFolderEndWithEveryCase) {
  constexpr int kProcesses = 4;
  pid_t children[kProcesses];
  for (int i = 0; i < kProcesses; ++i) {
    children[i] = fork();
    ASSERT_GE(children[i], 0);
    if (children[i] == 0) {
      const CheckResult clean;
      tell("Racelab/Mutex_RacelabClean.Clean/case_" + std::to_string(i), clean,
           false, true);
      _exit(0);
    }
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(results().at("cases").size(), static_cast<std::size_t>(kProcesses));
  // A test run again replaces its record.
  const CheckResult clean;
  tell("Racelab/Mutex_RacelabClean.Clean/case_0", clean, false, true);
  EXPECT_EQ(results().at("cases").size(), static_cast<std::size_t>(kProcesses));
}

TEST_F(KitReportsTest, NothingWithoutTheVariable) {
  ::unsetenv("RACELAB_REPORT_DIR");
  const CheckResult r = failing_result();
  tell("Racelab/Split_RacelabCaught.Caught/push_pop_race", r, true, true);
  EXPECT_TRUE(testing::entries(root_).empty());
}

}  // namespace
}  // namespace racelab
