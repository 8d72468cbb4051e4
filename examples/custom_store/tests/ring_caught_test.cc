// GoogleTest: the check-then-act ring buffer must be caught (a separate
// binary, so that the example's suite passes by asserting the bug IS found).
#include "racelab/gtest.h"
#include "ring/ring_spec.h"

RACELAB_SPEC_EXPECT_CAUGHT(SplitCheckRing, ring::split_check_ring_spec());

// The same check through the kit's API, asserting what was found and that
// the saved schedule replays to the same failure.
TEST(SplitCheckRing, CaughtByLinearizabilityNotTsanAndReplays) {
  const racelab::SpecRef split = ring::split_check_ring_spec();
  racelab::CheckResult result =
      racelab::check_spec(split, "last_slot", split->options);
  ASSERT_FALSE(result.clean());
  EXPECT_TRUE(result.has(racelab::FindingKind::kNotLinearizable))
      << result.message;
  EXPECT_FALSE(result.has(racelab::FindingKind::kDataRace)) << result.message;
  ASSERT_FALSE(result.schedule_file.empty());
  EXPECT_NE(result.message.find(result.schedule_file), std::string::npos);

  racelab::CheckResult replayed = racelab::replay_spec(
      split, "last_slot", result.schedule_file, split->options);
  EXPECT_FALSE(replayed.clean()) << replayed.message;
  // The fixed store under the same schedule file is clean.
  racelab::CheckResult fixed = racelab::replay_spec(
      ring::ring_spec(), "last_slot", result.schedule_file, {});
  EXPECT_TRUE(fixed.clean()) << fixed.message;
}
