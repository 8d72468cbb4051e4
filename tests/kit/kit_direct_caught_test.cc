// A kit test binary meant to be run directly, without CTest's environment
// (tests/kit/run_direct.sh runs it with TSAN_OPTIONS unset): its expected
// races are caught and judged by the kit, so the binary exits 0; and TSan
// reports a race again in every check of the one process.
#include "racelab/gtest.h"
#include "tally_family.h"

namespace racelab::tally {
namespace {

struct RacyTallyTraits {
  using Family = TallyFamily;
  static constexpr const char* kStoreName = "tally/racy";
  static std::unique_ptr<Tally> make() { return make_racy(); }
  static std::vector<Scenario<TallyFamily>> scenarios() { return {two_adds()}; }
  static CheckOptions options() {
    CheckOptions options;
    options.budget = 50;
    return options;
  }
};

RACELAB_EXPECT_CAUGHT(RacyTallyTraits);

TEST(DirectRun, EveryCheckOfTheProcessSeesTheRace) {
  if (!built_with_tsan()) GTEST_SKIP() << "needs a ThreadSanitizer build";
  for (int check = 0; check < 3; ++check) {
    const CheckResult r = check_store<TallyFamily>(&make_racy, two_adds(),
                                                   RacyTallyTraits::options());
    EXPECT_TRUE(r.has(FindingKind::kDataRace))
        << "check " << check << ": " << r.message;
  }
}

}  // namespace
}  // namespace racelab::tally
