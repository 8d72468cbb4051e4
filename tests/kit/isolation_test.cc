// Isolated kit checks (CheckOptions::isolate, racelab/internal/isolation.h): a
// store that crashes, aborts, throws, exits or hangs is a finding of
// check_store in both modes and this test binary survives it; in controlled
// mode the schedule in flight is saved and replays; a hang is no progress,
// never elapsed time alone, and kills the child's process group; an ASan report
// that ends the child is its finding; the child's result comes back whole.
#include "racelab/internal/isolation.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cell_family.h"
#include "racelab/internal/family.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/observation_json.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

using kit_test::Act;
using kit_test::CellFamily;
using kit_test::g_stores_made;
using kit_test::make_cell;
using kit_test::scenario_ending_in;

class IsolationTest : public testing::ScratchDirTest {
 protected:
  CheckOptions options(Mode mode) {
    CheckOptions o;
    o.mode = mode;
    o.budget = 5;
    o.stress_runs = 2;
    // Long enough that a crash's report on a loaded machine is no hang; the
    // hang tests shorten it.
    o.hang_seconds = 30;
    o.schedule_dir = root_.string();
    o.threads = sched::Substrate::kFibers;
    return o;
  }
};

class IsolationModeTest : public IsolationTest,
                          public ::testing::WithParamInterface<Mode> {};

bool has_kind(const CheckResult& r, FindingKind kind) { return r.has(kind); }

TEST_P(IsolationModeTest, AbortIsACrashFindingAndTheBinarySurvives) {
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kAbort), options(GetParam()));
  ASSERT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
  EXPECT_NE(r.findings[0].summary.find("SIGABRT"), std::string::npos)
      << r.findings[0].summary;
  EXPECT_NE(r.message.find("FAILED"), std::string::npos) << r.message;
}

TEST_P(IsolationModeTest, SignalIsACrashFinding) {
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kSegv), options(GetParam()));
  EXPECT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
}

TEST_P(IsolationModeTest, ExitIsACrashFinding) {
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kExit), options(GetParam()));
  ASSERT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
  EXPECT_NE(r.findings[0].summary.find("exited with status 3"),
            std::string::npos)
      << r.findings[0].summary;
}

TEST_P(IsolationModeTest, EndingWithoutAResultIsNeverAPass) {
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kQuickExit), options(GetParam()));
  ASSERT_FALSE(r.clean()) << r.message;
  EXPECT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
}

TEST_P(IsolationModeTest, UncaughtExceptionIsAFinding) {
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kThrow), options(GetParam()));
  EXPECT_FALSE(r.clean()) << r.message;
}

TEST_P(IsolationModeTest, AnAsanDeathIsItsFinding) {
  if (!built_with_asan()) GTEST_SKIP() << "needs an AddressSanitizer build";
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kUseAfterFree), options(GetParam()));
  ASSERT_TRUE(r.has(FindingKind::kUseAfterFree)) << r.message;
  EXPECT_EQ(r.findings[0].oracle, Oracle::kAsan);
  EXPECT_NE(r.findings[0].summary.find("cell_family.h"), std::string::npos)
      << r.findings[0].summary;
}

TEST_P(IsolationModeTest, HangIsATimeoutFinding) {
  const auto start = std::chrono::steady_clock::now();
  CheckOptions o = options(GetParam());
  o.hang_seconds = 1;
  const CheckResult r =
      check_store<CellFamily>(&make_cell, scenario_ending_in(Act::kHang), o);
  ASSERT_TRUE(has_kind(r, FindingKind::kTimeout)) << r.message;
  EXPECT_NE(r.findings[0].summary.find("no progress"), std::string::npos)
      << r.message;
  // Killed after about hang_seconds of no progress, not left to run.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

// Gone: no such process, or a zombie waiting for its reaper.
bool process_gone(int pid) {
  const std::string stat =
      testing::slurp("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return true;
  const std::size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() &&
         stat[paren + 2] == 'Z';
}

TEST_P(IsolationModeTest, AHangKillsTheChildsProcessGroup) {
  kit_test::g_pid_file = (root_ / "helper.pid").string();
  CheckOptions o = options(GetParam());
  o.hang_seconds = 1;
  const CheckResult r = check_store<CellFamily>(
      &make_cell, scenario_ending_in(Act::kHangInGroup), o);
  ASSERT_TRUE(r.has(FindingKind::kTimeout)) << r.message;
  const std::string text = testing::slurp(kit_test::g_pid_file);
  ASSERT_FALSE(text.empty());
  const int helper = std::atoi(text.c_str());
  ASSERT_GT(helper, 0);
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = process_gone(helper);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!gone) kill(helper, SIGKILL);
  EXPECT_TRUE(gone) << "the hung check's helper process " << helper
                    << " outlived it";
}

TEST_P(IsolationModeTest, SlowButProgressingIsNoHang) {
  // 7 operations of 600 ms: longer than hang_seconds in all, never that long
  // without progress.
  CheckOptions o = options(GetParam());
  o.budget = 1;
  o.stress_runs = 1;
  o.hang_seconds = 2;
  const CheckResult r =
      check_store<CellFamily>(&make_cell, scenario_ending_in(Act::kSlow, 7), o);
  EXPECT_TRUE(r.clean()) << r.message;
}

TEST_P(IsolationModeTest, TheCheckRunsInAChild) {
  g_stores_made = 0;
  CheckOptions o = options(GetParam());
  const CheckResult isolated =
      check_store<CellFamily>(&make_cell, scenario_ending_in(Act::kAdd), o);
  EXPECT_TRUE(isolated.clean()) << isolated.message;
  EXPECT_EQ(g_stores_made, 0);  // the stores were made in the child
  o.isolate = false;
  const CheckResult in_process =
      check_store<CellFamily>(&make_cell, scenario_ending_in(Act::kAdd), o);
  EXPECT_TRUE(in_process.clean()) << in_process.message;
  EXPECT_GT(g_stores_made, 0);
  EXPECT_EQ(isolated.message, in_process.message);
}

INSTANTIATE_TEST_SUITE_P(Modes, IsolationModeTest,
                         ::testing::Values(Mode::kControlled, Mode::kStress),
                         [](const auto& info) {
                           return std::string(to_string(info.param));
                         });

TEST_F(IsolationTest, ControlledCrashSavesTheScheduleInFlightAndItReplays) {
  const Scenario<CellFamily> s = scenario_ending_in(Act::kAbort);
  const CheckResult r =
      check_store<CellFamily>(&make_cell, s, options(Mode::kControlled));
  ASSERT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
  ASSERT_FALSE(r.schedule_file.empty()) << r.message;
  ASSERT_TRUE(std::filesystem::exists(r.schedule_file));
  const std::string text = testing::slurp(r.schedule_file);
  EXPECT_NE(text.find("abort"), std::string::npos) << text;
  EXPECT_FALSE(r.schedule.decisions.empty());
  EXPECT_NE(r.message.find(r.schedule_file), std::string::npos) << r.message;

  const CheckResult again = replay_store<CellFamily>(
      &make_cell, s, r.schedule_file, options(Mode::kControlled));
  EXPECT_TRUE(has_kind(again, FindingKind::kCrash)) << again.message;
}

TEST_F(IsolationTest, AProgramThatDoesNotParseIsAnInputErrorNotACrash) {
  const Scenario<CellFamily> s = scenario_ending_in(Act::kAbort);
  const CheckResult r =
      check_store<CellFamily>(&make_cell, s, options(Mode::kControlled));
  ASSERT_FALSE(r.schedule_file.empty()) << r.message;
  std::string text = testing::slurp(r.schedule_file);
  const std::size_t at = text.rfind("abort");  // in the program
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 5, "bogus");
  const std::string bad = (root_ / "bad.schedule").string();
  std::ofstream(bad) << text;
  EXPECT_THROW(
      replay_store<CellFamily>(&make_cell, s, bad, options(Mode::kControlled)),
      InputError);
}

// The one result format (observation_json.h): what a child sends is what
// its parent reads, every field.
TEST(ObservationCodec, AnObservationComesBackWhole) {
  RunObservation o;
  o.operations = 7;
  o.runs = 2;
  o.schedules = 12;
  o.first_failing = 11;
  o.replay_diverged = true;
  o.more_schedules = true;
  o.inner_points = 40;
  Finding f{FindingKind::kDataRace,
            Oracle::kTsan,
            "write of size 8 by thread 0 vs read",
            "line one\nline two \\ with a backslash",
            Frame{"Ring::push(int)", "/src/ring.cc", 42, FrameOrigin::kUser},
            {}};
  f.accesses.push_back(
      {"write of size 8",
       0,
       {Frame{"Ring::push(int)", "/src/ring.cc", 42, FrameOrigin::kUser},
        Frame{"", "", 0, FrameOrigin::kLibrary}}});
  f.accesses.push_back({"", 1, {}});
  f.accesses.back().tsan_tid = 64;
  o.findings.push_back(f);
  o.findings.push_back(invariant_violation(""));
  o.schedule.program = {"", "push(1) pop", "pop", ""};
  o.schedule.decisions = {0, 1, 1, 0};
  o.schedule.preemptions = 1;
  o.schedule.status = sched::RunResult::Status::kDeadlock;
  o.schedule.trace.thread_count = 2;
  o.schedule.trace.rows.emplace_back(0, 0, sched::TraceKind::kOperation,
                                     "push(1)");
  o.schedule.trace.rows.emplace_back(1, 1, sched::TraceKind::kLockAcquired,
                                     "acquired 'mu' (shared)", "mu", true);
  o.warnings = {"no scheduling point inside any operation"};
  o.log = "WARNING: ThreadSanitizer\n  #0 ...\n";
  o.schedule_file = "/tmp/a b.schedule";
  o.message = "ring x race: FAILED\n";
  o.exhaustive = true;
  o.inconclusive_linearizability = 2;
  o.inconclusive_detail = "unknown: the search ran out";
  o.suppressed = 3;
  o.suppressions_used = {"race:tbb::*  # tbbmalloc is not instrumented"};

  o.interrupted = true;
  o.fairness_cut = true;
  o.unmodelled_blocks = 2;
  o.first_block = "thread 1 blocked in read(2) at fd 3";
  o.killed_from_outside = 9;

  const RunObservation back = decode_observation(encode_observation(o));
  EXPECT_EQ(back.operations, o.operations);
  EXPECT_EQ(back.runs, o.runs);
  EXPECT_EQ(back.schedules, o.schedules);
  EXPECT_EQ(back.first_failing, o.first_failing);
  EXPECT_EQ(back.replay_diverged, o.replay_diverged);
  EXPECT_EQ(back.more_schedules, o.more_schedules);
  EXPECT_EQ(back.inner_points, o.inner_points);
  ASSERT_EQ(back.findings.size(), 2u);
  const Finding& g = back.findings[0];
  EXPECT_EQ(g.kind, f.kind);
  EXPECT_EQ(g.oracle, f.oracle);
  EXPECT_EQ(g.summary, f.summary);
  EXPECT_EQ(g.detail, f.detail);
  ASSERT_TRUE(g.subject_frame.has_value());
  EXPECT_EQ(g.subject_frame->function, "Ring::push(int)");
  EXPECT_EQ(g.subject_frame->file, "/src/ring.cc");
  EXPECT_EQ(g.subject_frame->line, 42);
  ASSERT_EQ(g.accesses.size(), 2u);
  EXPECT_EQ(g.accesses[0].what, "write of size 8");
  ASSERT_EQ(g.accesses[0].stack.size(), 2u);
  EXPECT_EQ(g.accesses[0].stack[1].origin, FrameOrigin::kLibrary);
  EXPECT_EQ(g.accesses[1].thread, 1);
  EXPECT_EQ(back.findings[1].kind, FindingKind::kInvariantViolation);
  EXPECT_FALSE(back.findings[1].subject_frame.has_value());
  EXPECT_EQ(back.schedule.program, o.schedule.program);
  EXPECT_EQ(back.schedule.decisions, o.schedule.decisions);
  EXPECT_EQ(back.schedule.preemptions, 1);
  EXPECT_EQ(back.schedule.status, o.schedule.status);
  EXPECT_EQ(back.schedule.trace, o.schedule.trace);
  EXPECT_EQ(back.warnings, o.warnings);
  EXPECT_EQ(back.log, o.log);
  EXPECT_EQ(back.schedule_file, o.schedule_file);
  EXPECT_EQ(back.message, o.message);
  EXPECT_EQ(g.accesses[1].tsan_tid, 64);
  EXPECT_TRUE(back.exhaustive);
  EXPECT_EQ(back.inconclusive_linearizability, 2);
  EXPECT_EQ(back.inconclusive_detail, o.inconclusive_detail);
  EXPECT_EQ(back.suppressed, 3);
  EXPECT_EQ(back.suppressions_used, o.suppressions_used);
  EXPECT_TRUE(back.interrupted);
  EXPECT_TRUE(back.fairness_cut);
  EXPECT_EQ(back.unmodelled_blocks, 2);
  EXPECT_EQ(back.first_block, o.first_block);
  EXPECT_EQ(back.killed_from_outside, 9);
}

// Bytes that are not UTF-8 come back as replacement characters: a log that
// quotes the input never makes the result unreadable.
TEST(ObservationCodec, BytesThatAreNotUtf8DoNotSpoilTheResult) {
  RunObservation o;
  o.log = "not utf-8: \xff\xfe end";
  const RunObservation back = decode_observation(encode_observation(o));
  EXPECT_EQ(back.log.rfind("not utf-8: ", 0), 0u) << back.log;
  EXPECT_NE(back.log.find(" end"), std::string::npos) << back.log;
}

TEST(ObservationCodec, AResultThatIsNotOneIsAnErrorNotAPass) {
  EXPECT_THROW(decode_observation(""), std::runtime_error);
  EXPECT_THROW(decode_observation("counts 1 2 3"), std::runtime_error);
  EXPECT_THROW(decode_observation(R"({"operations": 1})"), std::runtime_error);
  EXPECT_THROW(decode_observation(
                   R"({"operations": 1, "findings": [{"kind": "nonsense",)"
                   R"( "oracle": "tsan", "summary": ""}]})"),
               std::runtime_error);
}

// A failing schedule that cannot be saved says why, instead of a bare "could
// not be saved": here the schedule folder is a regular file.
TEST_F(IsolationTest, AScheduleThatCannotBeSavedSaysWhy) {
  CheckOptions o = options(Mode::kControlled);
  const std::filesystem::path not_a_folder = root_ / "not_a_folder";
  std::ofstream(not_a_folder) << "a file\n";
  o.schedule_dir = not_a_folder.string();
  const CheckResult r =
      check_store<CellFamily>(&make_cell, scenario_ending_in(Act::kAbort), o);
  ASSERT_TRUE(has_kind(r, FindingKind::kCrash)) << r.message;
  EXPECT_TRUE(r.schedule_file.empty()) << r.schedule_file;
  const std::string marker = "(the schedule could not be saved: ";
  const std::size_t at = r.message.find(marker);
  ASSERT_NE(at, std::string::npos) << r.message;
  EXPECT_NE(r.message.find(not_a_folder.string(), at), std::string::npos)
      << r.message;
}

}  // namespace
}  // namespace racelab
