// A test binary as a user builds it with the kit's GoogleTest macros, driven
// by replay_through_binary.sh: a racy store whose clean tests fail (their
// message ends with the replay command), the same store expected caught, and
// a locked store that is clean. Not registered with CTest on its own: some
// of its tests fail on purpose.
#include <memory>
#include <vector>

#include "cell_family.h"
#include "racelab/gtest.h"

namespace {

using racelab::kit_test::Act;
using racelab::kit_test::CellFamily;
using racelab::kit_test::scenario_ending_in;

racelab::CheckOptions small_options() {
  racelab::CheckOptions options;
  options.budget = 20;
  options.stress_runs = 2;
  options.hang_seconds = 5;
  return options;
}

struct RacyCellTraits {
  using Family = CellFamily;
  static constexpr const char* kStoreName = "cell/racy";
  static std::unique_ptr<racelab::kit_test::Cell> make() {
    return std::make_unique<racelab::kit_test::Cell>();
  }
  static std::vector<racelab::Scenario<CellFamily>> scenarios() {
    return {scenario_ending_in(Act::kRacyAdd), scenario_ending_in(Act::kAbort)};
  }
  static racelab::CheckOptions options() { return small_options(); }
};

struct LockedCellTraits {
  using Family = CellFamily;
  static constexpr const char* kStoreName = "cell/locked";
  static std::unique_ptr<racelab::kit_test::Cell> make() {
    return std::make_unique<racelab::kit_test::Cell>();
  }
  static std::vector<racelab::Scenario<CellFamily>> scenarios() {
    return {scenario_ending_in(Act::kAdd)};
  }
  static racelab::CheckOptions options() { return small_options(); }
};

}  // namespace

RACELAB_STORE_TESTS(RacyCellTraits);
RACELAB_EXPECT_CAUGHT(RacyCellTraits);
RACELAB_STORE_TESTS(LockedCellTraits);
