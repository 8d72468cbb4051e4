// The kit engine's own behaviour on a tiny family (tally_family.h):
// scenarios without invariants, family names and factories of every
// ordinary kind, exhaustive and inconclusive searches, a std::mutex held
// across a pause.
#include <gtest/gtest-spi.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "racelab/fuzz_target.h"
#include "racelab/gtest.h"
#include "racelab/internal/family.h"
#include "racelab/internal/input_error.h"
#include "racelab/spec.h"
#include "racelab/suppressions.h"
#include "tally_family.h"

namespace {

// A store outside racelab's namespace, as a user's is: its frames are the
// first ones outside racelab in a lock's call stack.
// Two locks taken in opposite orders, each thread holding its first until
// the other holds its own: every stress run deadlocks.
class CrossedLocks {
 public:
  void a_then_b() { take(a_, a_held_, b_held_, b_); }
  void b_then_a() { take(b_, b_held_, a_held_, a_); }

 private:
  static void take(std::mutex& first, std::atomic<bool>& mine,
                   std::atomic<bool>& theirs, std::mutex& second) {
    std::lock_guard<std::mutex> hold(first);
    mine = true;
    while (!theirs) std::this_thread::yield();
    std::lock_guard<std::mutex> then(second);
  }
  std::mutex a_, b_;
  std::atomic<bool> a_held_{false}, b_held_{false};
};

}  // namespace

namespace racelab::tally {
namespace {

CheckOptions quick(Mode mode) {
  CheckOptions options;
  options.mode = mode;
  options.budget = 50;
  options.stress_runs = 3;
  return options;
}

// The invariants (none) and the model, without TSan (which reports the racy
// store's race before any interleaving).
CheckOptions without_tsan(Mode mode) {
  CheckOptions options = quick(mode);
  options.oracles = {Oracle::kInvariants, Oracle::kLinearizability};
  return options;
}

// --- Scenarios without invariants (Scenario::check unset) -----------------

TEST(EmptyInvariants, ControlledCheckRunsTheOtherOracles) {
  const Scenario<TallyFamily> scenario = two_adds();
  ASSERT_FALSE(scenario.check);
  const CheckResult racy = check_store<TallyFamily>(
      &make_racy, scenario, without_tsan(Mode::kControlled));
  EXPECT_TRUE(racy.has(FindingKind::kNotLinearizable)) << racy.message;
  const CheckResult all =
      check_store<TallyFamily>(&make_racy, scenario, quick(Mode::kControlled));
  EXPECT_FALSE(all.clean()) << all.message;
  const CheckResult locked = check_store<TallyFamily>(&make_locked, scenario,
                                                      quick(Mode::kControlled));
  EXPECT_TRUE(locked.clean()) << locked.message;
}

TEST(EmptyInvariants, StressCheckRuns) {
  const CheckResult locked =
      check_store<TallyFamily>(&make_locked, two_adds(), quick(Mode::kStress));
  EXPECT_TRUE(locked.clean()) << locked.message;
  EXPECT_EQ(locked.runs, 3);
}

TEST(EmptyInvariants, ReplayRuns) {
  CheckOptions options = without_tsan(Mode::kControlled);
  options.store_name = "tally/racy-empty-invariants";
  const CheckResult found =
      check_store<TallyFamily>(&make_racy, two_adds(), options);
  ASSERT_FALSE(found.schedule_file.empty()) << found.message;
  const CheckResult replayed = replay_store<TallyFamily>(
      &make_racy, two_adds(), found.schedule_file, options);
  EXPECT_TRUE(replayed.has(FindingKind::kNotLinearizable)) << replayed.message;
}

// A spec of a tally store (LockedTally, RacyTally), for the doors that take
// a spec: two adds and a read, as two_adds.
template <class T>
Spec<T> tally_spec(std::string name) {
  return Spec<T>(std::move(name))
      .op(
          "add", [](T& t, OpContext& ctx, int n) { t.add(n, ctx); }, ints(1, 2))
      .op("get", &T::get)
      .without_random_scenario()
      .scenario("two_adds",
                Plan{{}, {{call("add", 1)}, {call("add", 1)}}, {call("get")}});
}

TEST(EmptyInvariants, FuzzTargetOfASpecWithoutInvariantsRuns) {
  const std::vector<std::uint8_t> input = {1, 2, 0, 1, 1, 0, 1, 0, 1, 1};
  EXPECT_EQ(fuzz_spec_input(tally_spec<LockedTally>("tally/locked"),
                            input.data(), input.size()),
            0);
}

// --- The spec's oracle selection --------------------------------------------

// A case of all (what RACELAB_SPEC_EXPECT_CAUGHT runs) runs the oracles the
// spec selects, not every selectable one.
TEST(OracleSelection, TheCaseOfAllRunsTheSelectedOraclesOnly) {
  const KitCase all{0, "two_adds", Mode::kControlled, std::nullopt};
  CheckOptions options = quick(Mode::kControlled);
  options.oracles = {Oracle::kLinearizability};
  const CheckResult caught = run_spec_case(
      tally_spec<RacyTally>("tally/racy-selecting").options(options), all);
  ASSERT_FALSE(caught.clean()) << caught.message;
  for (const Finding& f : caught.findings) {
    EXPECT_EQ(f.oracle, Oracle::kLinearizability) << caught.message;
  }
  // The spec has no invariants: a store judged by them alone is clean.
  options.oracles = {Oracle::kInvariants};
  const CheckResult clean = run_spec_case(
      tally_spec<RacyTally>("tally/racy-selecting").options(options), all);
  EXPECT_TRUE(clean.clean()) << clean.message;
}

// --- A stress-mode hang names its locks -------------------------------------

TEST(StressHang, TheTimeoutNamesTheCycleAndEachThreadsLocks) {
  CheckOptions options = quick(Mode::kStress);
  options.stress_runs = 1;
  options.hang_seconds = 3;
  const CheckResult r =
      Spec<::CrossedLocks>("crossed")
          .op("a_then_b", &::CrossedLocks::a_then_b)
          .op("b_then_a", &::CrossedLocks::b_then_a)
          .without_random_scenario()
          .scenario("crossed",
                    Plan{{}, {{call("a_then_b")}, {call("b_then_a")}}, {}}, "",
                    {Mode::kStress})
          .check("crossed", options);
  ASSERT_TRUE(r.has(FindingKind::kTimeout)) << r.message;
  const std::string& detail = r.findings.front().detail;
  EXPECT_NE(detail.find("lock-order deadlock: OS thread "), std::string::npos)
      << detail;
  // Each thread's wait, with the store's own frame, and the lock it holds.
  EXPECT_NE(detail.find("waits for lock 0x"), std::string::npos) << detail;
  EXPECT_NE(detail.find("CrossedLocks::take"), std::string::npos) << detail;
  EXPECT_NE(detail.find("kit_faults_test.cc:"), std::string::npos) << detail;
  EXPECT_NE(detail.find("; holds 0x"), std::string::npos) << detail;
}

// --- Names and factories ----------------------------------------------------

struct ViewNamedFamily : TallyFamily {
  static constexpr std::string_view kName = "tally-view";
};
static_assert(Family<ViewNamedFamily>);
struct FunctionNamedFamily : TallyFamily {
  static std::string name() { return "tally-function"; }
};
static_assert(Family<FunctionNamedFamily>);

TEST(Names, FamilyNamedByAViewChecksAndNamesItsMessages) {
  const CheckResult r = check_store<ViewNamedFamily>(
      &make_locked, two_adds<ViewNamedFamily>(), quick(Mode::kControlled));
  EXPECT_TRUE(r.clean()) << r.message;
  EXPECT_TRUE(r.message.starts_with("tally-view x two_adds")) << r.message;
}

// ThreadSanitizer does not watch a child forked from a multi-threaded
// process: with another thread alive, an isolated check runs in process,
// still finds the race, and says why it was not isolated.
TEST(Isolation, WithAnotherThreadAliveTheCheckRunsHereAndSaysSo) {
  if (!built_with_tsan()) GTEST_SKIP() << "a ThreadSanitizer build only";
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  std::thread other([&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return stop; });
  });
  const CheckResult r = check_store<TallyFamily>(&make_racy, two_adds(),
                                                 quick(Mode::kControlled));
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  cv.notify_one();
  other.join();
  EXPECT_TRUE(r.has(FindingKind::kDataRace)) << r.message;
  ASSERT_FALSE(r.warnings.empty()) << r.message;
  EXPECT_NE(r.warnings.back().find("not isolated"), std::string::npos)
      << r.message;
}

TEST(Factories, CapturingLambda) {
  int made = 0;
  // In process: the count is read here, and an isolated check would make
  // its stores in a child.
  CheckOptions options = quick(Mode::kControlled);
  options.isolate = false;
  const CheckResult r = check_store<TallyFamily>(
      [&made] {
        ++made;
        return make_locked();
      },
      two_adds(), options);
  EXPECT_TRUE(r.clean()) << r.message;
  EXPECT_GE(made, r.schedules);  // a fresh store for every schedule
  EXPECT_GT(made, 0);
}

// --- Exhaustive and inconclusive searches -----------------------------------

TEST(Exhaustive, ACompletedDfsSaysSo) {
  CheckOptions options = quick(Mode::kControlled);
  options.strategy = "dfs";
  options.budget = 1000;
  const CheckResult r =
      check_store<TallyFamily>(&make_locked, two_adds(), options);
  ASSERT_TRUE(r.clean()) << r.message;
  EXPECT_TRUE(r.exhaustive) << r.message;
  EXPECT_LT(r.schedules, options.budget);
  EXPECT_NE(r.message.find("exhaustive: all " + std::to_string(r.schedules) +
                           " schedules within 2 preemptions are clean"),
            std::string::npos)
      << r.message;
}

TEST(Exhaustive, ABudgetSpentIsNotExhaustive) {
  CheckOptions options = quick(Mode::kControlled);
  options.strategy = "dfs";
  options.budget = 2;
  const CheckResult r =
      check_store<TallyFamily>(&make_locked, two_adds(), options);
  EXPECT_FALSE(r.exhaustive) << r.message;
  const CheckResult pct = check_store<TallyFamily>(&make_locked, two_adds(),
                                                   quick(Mode::kControlled));
  EXPECT_FALSE(pct.exhaustive) << pct.message;
  EXPECT_EQ(pct.message.find("exhaustive"), std::string::npos) << pct.message;
}

// A model whose search may take one step only: no history of three
// operations is decided.
struct OneStepModel : TallyModel {
  static constexpr std::size_t kMaxSearchSteps = 1;
};
using OneStepFamily = BasicTallyFamily<OneStepModel>;

CheckOptions one_step_options() {
  CheckOptions options = quick(Mode::kControlled);
  options.oracles = {Oracle::kLinearizability};
  options.store_name = "tally/one-step";
  return options;
}

// A clean-expecting kit test (gtest.h's run_case) of the one-step store.
void expect_one_step_clean() {
  gtest_internal::CaseDriver driver;
  driver.family = "tally";
  driver.store = "tally/one-step";
  driver.scenario = "two_adds";
  driver.run = [] {
    return check_store<OneStepFamily>(&make_locked, two_adds<OneStepFamily>(),
                                      one_step_options());
  };
  gtest_internal::run_case(
      KitCase{0, "two_adds", Mode::kControlled, Oracle::kLinearizability},
      /*expect_caught=*/false, driver);
}

TEST(Inconclusive, AnUndecidedSearchIsReportedNotClean) {
  const CheckResult r = check_store<OneStepFamily>(
      &make_locked, two_adds<OneStepFamily>(), one_step_options());
  EXPECT_TRUE(r.findings.empty()) << r.message;  // not a finding either
  EXPECT_GT(r.inconclusive_linearizability, 0) << r.message;
  EXPECT_NE(r.message.find("inconclusive: "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("partition the model"), std::string::npos)
      << r.message;
  // The default model decides the same histories.
  const CheckResult decided = check_store<TallyFamily>(
      &make_locked, two_adds(), quick(Mode::kControlled));
  EXPECT_EQ(decided.inconclusive_linearizability, 0) << decided.message;
  EXPECT_EQ(decided.message.find("inconclusive"), std::string::npos);
}

TEST(Inconclusive, ACleanExpectingKitTestFailsOnIt) {
  EXPECT_NONFATAL_FAILURE(expect_one_step_clean(), "inconclusive: ");
}

TEST(Inconclusive, StressModeReportsIt) {
  CheckOptions options = one_step_options();
  options.mode = Mode::kStress;
  const CheckResult r = check_store<OneStepFamily>(
      &make_locked, two_adds<OneStepFamily>(), options);
  EXPECT_GT(r.inconclusive_linearizability, 0) << r.message;
}

// --- The first frame in the user's own code --------------------------------

Frame frame(std::string function, std::string file, int line) {
  Frame f{std::move(function), std::move(file), line, FrameOrigin::kUser};
  f.origin = frame_origin_of(f.file);
  return f;
}

class FrameLocation : public ::testing::Test {
 protected:
  void TearDown() override { set_project_dir(""); }
};

TEST_F(FrameLocation, AProjectWhereSystemCodeUsuallyIsIsTheUsersCode) {
  // A store outside racelab's tree, in a folder that looks like system code.
  set_project_dir("/usr/src/app");
  const std::vector<Frame> stack = {
      frame("std::mutex::lock()", "/usr/include/c++/12/bits/std_mutex.h", 100),
      frame("ring::(anonymous namespace)::SplitCheckRing::push(int)",
            "/usr/src/app/ring/split_check_ring.cc", 31),
      frame("main", "/usr/src/app/tests/ring_test.cc", 5)};
  ASSERT_EQ(stack[1].origin, FrameOrigin::kLibrary);  // by its path alone
  const Frame* subject = first_subject_frame(stack);
  ASSERT_NE(subject, nullptr);
  EXPECT_EQ(subject->line, 31);

  Finding f = invariant_violation("lost");
  f.subject_frame = *subject;
  EXPECT_NE(format_findings({f}).find(
                "at SplitCheckRing::push ring/split_check_ring.cc:31"),
            std::string::npos)
      << format_findings({f});
}

TEST_F(FrameLocation, AProjectAnywhereElseIsNamedRelativeToIt) {
  set_project_dir("/home/dev/ringlib");
  EXPECT_EQ(display_path("/home/dev/ringlib/ring/split_check_ring.cc"),
            "ring/split_check_ring.cc");
  EXPECT_EQ(display_path("/home/dev/other/x.cc"), "/home/dev/other/x.cc");
  EXPECT_EQ(display_path("/home/dev/ringlibx/y.cc"), "/home/dev/ringlibx/y.cc");
}

TEST(FrameLocationEndToEnd, TheMessageNamesTheStoresFrameAndMapsThreads) {
  if (!built_with_tsan()) GTEST_SKIP() << "needs a ThreadSanitizer build";
  CheckOptions options = quick(Mode::kControlled);
  options.oracles = {Oracle::kTsan};
  const CheckResult r =
      check_store<TallyFamily>(&make_racy, two_adds(), options);
  ASSERT_TRUE(r.has(FindingKind::kDataRace)) << r.message;
  // This binary's project folder is tests/kit (RACELAB_PROJECT_SOURCE_DIR).
  EXPECT_NE(r.message.find("at RacyTally::add tally_family.h:"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("ThreadSanitizer's own report"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find(" = thread 0"), std::string::npos) << r.message;
}

TEST(FindingText, ARaceNamesBothSides) {
  Finding race{FindingKind::kDataRace,
               Oracle::kTsan,
               "ThreadSanitizer: data race",
               "",
               Frame{"Store::put(int)", "/src/store.cc", 12},
               {}};
  race.accesses.push_back(
      {"write of size 4", 1, {Frame{"Store::put(int)", "/src/store.cc", 12}}});
  race.accesses.push_back({"read of size 4",
                           0,
                           {Frame{"Store::get() const", "/src/store.cc", 20}}});
  const std::string text = format_findings({race});
  EXPECT_NE(text.find("write of size 4 by thread 1 at Store::put "
                      "/src/store.cc:12"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("previous read of size 4 by thread 0 at Store::get "
                      "/src/store.cc:20"),
            std::string::npos)
      << text;
}

TEST(FindingText, IdenticalFindingsAreMergedAndCounted) {
  CheckOptions options = quick(Mode::kStress);
  options.isolate = false;
  const Finding lost =
      invariant_violation("sum: 2 adds, total 1 (an increment was lost)");
  const CheckResult r = kit_internal::finish_check(
      [&] {
        CheckResult result;
        result.runs = 1;
        result.findings = {lost, invariant_violation("another"), lost, lost};
        return result;
      },
      options, "tally", "two_adds", "");
  ASSERT_EQ(r.findings.size(), 2u) << r.message;
  EXPECT_EQ(r.findings[0].summary,
            "sum: 2 adds, total 1 (an increment was lost) (3 times)");
  EXPECT_EQ(r.findings[1].summary, "another");
}

// An oracle switched off is silent: TSan prints none of the racy store's
// reports, in either mode, and the next check with the oracle on gets them.
TEST(TsanOracleOff, TsanPrintsNothing) {
  if (!built_with_tsan()) GTEST_SKIP() << "needs a ThreadSanitizer build";
  for (Mode mode : {Mode::kControlled, Mode::kStress}) {
    ::testing::internal::CaptureStderr();
    const CheckResult r =
        check_store<TallyFamily>(&make_racy, two_adds(), without_tsan(mode));
    const std::string printed = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(r.has(FindingKind::kDataRace)) << r.message;
    EXPECT_EQ(printed.find("ThreadSanitizer"), std::string::npos) << printed;
  }
  CheckOptions options = quick(Mode::kControlled);
  options.oracles = {Oracle::kTsan};
  const CheckResult on =
      check_store<TallyFamily>(&make_racy, two_adds(), options);
  EXPECT_TRUE(on.has(FindingKind::kDataRace)) << on.message;
  EXPECT_TRUE(tsan_reports_wanted());
}

// --- TSan suppressions through the kit -------------------------------------

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Suppressions, ALineWithoutAReasonIsAnInputErrorNamingFileAndLine) {
  const std::string path =
      write_file("no_reason.supp", "# header comment\n\nrace:RacyTally::add\n");
  CheckOptions options = quick(Mode::kControlled);
  options.suppressions = path;
  try {
    check_store<TallyFamily>(&make_racy, two_adds(), options);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":3"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("no reason"), std::string::npos)
        << e.what();
  }
}

TEST(Suppressions, AnUnreadableFileOrABadLineIsAnInputError) {
  EXPECT_THROW(load_suppressions(::testing::TempDir() + "/no/such.supp"),
               InputError);
  EXPECT_THROW(load_suppressions(write_file("bad.supp", "racey  # why\n")),
               InputError);
  EXPECT_THROW(
      load_suppressions(write_file("type.supp", "signal:foo  # why\n")),
      InputError);
  const std::vector<Suppression> ok = load_suppressions(write_file(
      "ok.supp", "race:tbb::internal  # tbbmalloc is not instrumented\n"));
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].type, "race");
  EXPECT_EQ(ok[0].pattern, "tbb::internal");
  EXPECT_EQ(ok[0].reason, "tbbmalloc is not instrumented");
  EXPECT_EQ(ok[0].line, 1);
}

TEST(Suppressions, TsanWildcardRules) {
  EXPECT_TRUE(suppression_pattern_matches("internal", "tbb::internal::f()"));
  EXPECT_TRUE(suppression_pattern_matches("^tbb::", "tbb::internal::f()"));
  EXPECT_FALSE(suppression_pattern_matches("^internal", "tbb::internal::f"));
  EXPECT_TRUE(suppression_pattern_matches("Queue<*>::dequeue",
                                          "ns::Queue<int, long>::dequeue()"));
  EXPECT_FALSE(suppression_pattern_matches("Queue<*>::enqueue",
                                           "ns::Queue<int>::dequeue()"));
  EXPECT_TRUE(suppression_pattern_matches("ring.cc$", "/src/ring.cc"));
  EXPECT_FALSE(suppression_pattern_matches("ring.cc$", "/src/ring.cc.bak"));
  EXPECT_FALSE(suppression_pattern_matches("x", ""));
}

TEST(Suppressions, AMatchingTsanFindingIsDroppedAndCounted) {
  if (!built_with_tsan()) GTEST_SKIP() << "needs a ThreadSanitizer build";
  CheckOptions options = quick(Mode::kControlled);
  options.oracles = {Oracle::kTsan};
  options.suppressions = write_file(
      "tally.supp",
      "race:RacyTally::add  # the test's own lost update, on purpose\n");
  const CheckResult r =
      check_store<TallyFamily>(&make_racy, two_adds(), options);
  std::cout << r.message;
  EXPECT_TRUE(r.clean()) << r.message;
  EXPECT_GT(r.suppressed, 0) << r.message;
  EXPECT_NE(r.message.find("suppressed: "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("the test's own lost update, on purpose"),
            std::string::npos)
      << r.message;
  // By file too; a pattern that matches no frame suppresses nothing.
  options.suppressions = write_file(
      "file.supp", "race:kit/tally_family.h  # by the store's file\n");
  EXPECT_TRUE(
      check_store<TallyFamily>(&make_racy, two_adds(), options).clean());
  options.suppressions =
      write_file("other.supp", "race:NoSuchFunction  # matches nothing\n");
  const CheckResult kept =
      check_store<TallyFamily>(&make_racy, two_adds(), options);
  EXPECT_TRUE(kept.has(FindingKind::kDataRace)) << kept.message;
  EXPECT_EQ(kept.suppressed, 0);
}

// --- A std::mutex held across ctx.pause() in controlled mode ---------------

class MutexAcrossPause : public ::testing::TestWithParam<sched::Substrate> {};

TEST_P(MutexAcrossPause, CompletesWithAVerdict) {
  CheckOptions options = quick(Mode::kControlled);
  options.threads = GetParam();
  const CheckResult r =
      check_store<TallyFamily>(&make_pausing_locked, two_adds(), options);
  EXPECT_TRUE(r.clean()) << r.message;
  EXPECT_EQ(r.schedules, options.budget) << r.message;
  // The pause inside the lock is a scheduling point inside an operation.
  EXPECT_GT(r.inner_points, 0) << r.message;
}

INSTANTIATE_TEST_SUITE_P(BothSubstrates, MutexAcrossPause,
                         ::testing::Values(sched::Substrate::kOsThreads,
                                           sched::Substrate::kFibers));

}  // namespace
}  // namespace racelab::tally
