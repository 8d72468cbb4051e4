// The session of a check (racelab/internal/session.h): two kit checks in one
// process, one after the other, give the verdicts each gives alone; a session's
// state is gone with it; one session at a time.
#include "racelab/internal/session.h"

#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "checkpoint_spec.h"
#include "racelab/go_map.h"
#include "racelab/kit.h"
#include "scratch_dir.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

// The checkpoint spec with one of the catalog's checkpoint stores.
checkpoint::CheckpointSpec checkpoint_variant(std::string_view variant) {
  for (const auto& s : checkpoint_subjects()) {
    if (variant == s.variant) return checkpoint::checkpoint_spec().make(s.make);
  }
  ADD_FAILURE() << "no checkpoint variant " << variant;
  return checkpoint::checkpoint_spec();
}

std::set<FindingKind> kinds_of(const CheckResult& r) {
  std::set<FindingKind> kinds;
  for (const Finding& f : r.findings) kinds.insert(f.kind);
  return kinds;
}

class SessionTest : public testing::ScratchDirTest {
 protected:
  CheckResult check(std::string_view variant, Mode mode) {
    CheckOptions options;
    options.mode = mode;
    options.seed = 7;
    options.budget = 200;
    options.stress_runs = 3;
    options.schedule_dir = root_.string();
    options.store_name = std::string("checkpoint/") + std::string(variant);
    return checkpoint_variant(variant).check("same_session_first_commit",
                                             options);
  }
};

TEST_F(SessionTest, ChecksOneAfterTheOtherGiveTheVerdictsOfEachAlone) {
  const CheckResult caught = check("split_lock", Mode::kControlled);
  const CheckResult clean = check("mutex", Mode::kControlled);
  const CheckResult caught_again = check("split_lock", Mode::kControlled);
  const CheckResult clean_again = check("mutex", Mode::kControlled);

  ASSERT_TRUE(caught.has(FindingKind::kNotLinearizable)) << caught.message;
  EXPECT_TRUE(clean.clean()) << clean.message;
  EXPECT_TRUE(clean_again.clean()) << clean_again.message;
  // The same seed searches the same schedules: the second check of the
  // caught store finds the same failure at the same schedule, with the same
  // findings and the same minimal trace.
  EXPECT_EQ(kinds_of(caught_again), kinds_of(caught)) << caught_again.message;
  EXPECT_EQ(caught_again.first_failing, caught.first_failing);
  EXPECT_EQ(caught_again.findings.size(), caught.findings.size());
  EXPECT_EQ(caught_again.schedule.trace, caught.schedule.trace);
  EXPECT_EQ(clean_again.schedules, clean.schedules);
}

TEST_F(SessionTest, StressChecksOneAfterTheOtherStayIndependent) {
  const CheckResult clean = check("mutex", Mode::kStress);
  const CheckResult clean_again = check("mutex", Mode::kStress);
  EXPECT_TRUE(clean.clean()) << clean.message;
  EXPECT_TRUE(clean_again.clean()) << clean_again.message;
  EXPECT_EQ(clean.runs, clean_again.runs);
}

TEST(Session, ASessionsStateIsGoneWithIt) {
  {
    Session first;
    record_go_map_fault(GoMapFault::kConcurrentWrites, "left behind");
  }
  Session second;
  EXPECT_TRUE(take_go_map_faults().empty());
  record_go_map_fault(GoMapFault::kReadDuringWrite, "mine");
  const std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].where, "mine");
}

TEST(Session, OneAtATime) {
  EXPECT_FALSE(Session::active());
  {
    Session outer;
    EXPECT_TRUE(Session::active());
    EXPECT_THROW(Session nested, std::logic_error);
    EXPECT_TRUE(Session::active());  // the failed one changed nothing
  }
  EXPECT_FALSE(Session::active());
  Session after;  // and the next one starts
  EXPECT_TRUE(Session::active());
}

TEST(Session, ACheckInsideAnotherIsRefused) {
  Session running;
  CheckOptions options;
  options.budget = 1;
  EXPECT_THROW(
      checkpoint_variant("mutex").check("same_session_first_commit", options),
      std::logic_error);
}

}  // namespace
}  // namespace racelab
