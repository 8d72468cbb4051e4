// A kit test binary meant to be run directly, without CTest's environment
// (tests/kit/run_direct.sh runs it with TSAN_OPTIONS unset): its expected
// races are caught and judged by the kit, so the binary exits 0; and TSan
// reports a race again in every check of the one process.
#include "racelab/gtest.h"
#include "racelab/spec.h"
#include "tally_family.h"

namespace racelab::tally {
namespace {

CheckOptions small_budget() {
  CheckOptions options;
  options.budget = 50;
  return options;
}

Spec<RacyTally> racy_tally_spec() {
  return Spec<RacyTally>("tally/racy")
      .op(
          "add", [](RacyTally& t, OpContext& ctx, int n) { t.add(n, ctx); },
          ints(1, 2))
      .op("get", &RacyTally::get)
      .without_random_scenario()
      .scenario("two_adds",
                Plan{{}, {{call("add", 1)}, {call("add", 1)}}, {call("get")}})
      .options(small_budget());
}

RACELAB_SPEC_EXPECT_CAUGHT(RacyTallyCaught, racy_tally_spec());

TEST(DirectRun, EveryCheckOfTheProcessSeesTheRace) {
  if (!built_with_tsan()) GTEST_SKIP() << "needs a ThreadSanitizer build";
  for (int check = 0; check < 3; ++check) {
    const CheckResult r =
        check_store<TallyFamily>(&make_racy, two_adds(), small_budget());
    EXPECT_TRUE(r.has(FindingKind::kDataRace))
        << "check " << check << ": " << r.message;
  }
}

}  // namespace
}  // namespace racelab::tally
