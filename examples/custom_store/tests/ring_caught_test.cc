// GoogleTest: the check-then-act ring buffer must be caught (a separate
// binary, so that the example's suite passes by asserting the bug IS found).
#include "racelab/gtest.h"
#include "ring/ring_family.h"

using ring::SplitCheckRingTraits;

RACELAB_EXPECT_CAUGHT(SplitCheckRingTraits);

// The same check through the kit's API, asserting what was found and that
// the saved schedule replays to the same failure.
TEST(SplitCheckRing, CaughtByLinearizabilityNotTsanAndReplays) {
  const auto scenarios = ring::ring_scenarios();
  racelab::CheckOptions options;
  options.store_name = "ring/split_check";
  racelab::CheckResult result = racelab::check_store<ring::RingFamily>(
      &SplitCheckRingTraits::make, scenarios[0], options);
  ASSERT_FALSE(result.clean());
  EXPECT_TRUE(result.has(racelab::FindingKind::kNotLinearizable))
      << result.message;
  EXPECT_FALSE(result.has(racelab::FindingKind::kDataRace)) << result.message;
  ASSERT_FALSE(result.schedule_file.empty());
  EXPECT_NE(result.message.find(result.schedule_file), std::string::npos);

  racelab::CheckResult replayed = racelab::replay_store<ring::RingFamily>(
      &SplitCheckRingTraits::make, scenarios[0], result.schedule_file, options);
  EXPECT_FALSE(replayed.clean()) << replayed.message;
  // The fixed store under the same schedule file is clean.
  racelab::CheckResult fixed = racelab::replay_store<ring::RingFamily>(
      &ring::MutexRingTraits::make, scenarios[0], result.schedule_file,
      options);
  EXPECT_TRUE(fixed.clean()) << fixed.message;
}
