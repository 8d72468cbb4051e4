// GoogleTest's --gtest_list_tests output, as `racelab explore --tests` reads
// it (test_listing.h).
#include "racelab/test_listing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "racelab/internal/input_error.h"

namespace racelab {
namespace {

TEST(GtestListing, SuitesTestsParametersAndGtestMainsLine) {
  const std::string text =
      "Running main() from ./googletest/src/gtest_main.cc\n"
      "Counter.\n"
      "  Locked\n"
      "  Unlocked\n"
      "Small/Params.  # TypeParam = int\n"
      "  Square/0  # GetParam() = -1\n"
      "  Square/1  # GetParam() = 0\n";
  EXPECT_EQ(parse_gtest_listing(text),
            (std::vector<std::string>{"Counter.Locked", "Counter.Unlocked",
                                      "Small/Params.Square/0",
                                      "Small/Params.Square/1"}));
}

TEST(GtestListing, NothingListedIsNoTest) {
  EXPECT_TRUE(parse_gtest_listing("").empty());
  EXPECT_TRUE(parse_gtest_listing("hello\n").empty());
}

TEST(GtestListing, ATestBeforeAnySuiteIsAnError) {
  try {
    parse_gtest_listing("  Orphan\n");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "line 1: test 'Orphan' before any test suite");
  }
}

// Names with spaces or quotes are no test's: a program's own output.
TEST(GtestListing, LinesThatNameNoTestAreNotTests) {
  EXPECT_EQ(parse_gtest_listing("Suite.\n  a b\n  'x'\n  ok\n"),
            (std::vector<std::string>{"Suite.ok"}));
}

TEST(GtestListing, OneTestAloneReplacesTheUsersFilter) {
  EXPECT_EQ(
      one_gtest_command({"./t", "--gtest_filter=Slot.*", "--verbose"},
                        "Slot.A"),
      (std::vector<std::string>{"./t", "--verbose", "--gtest_filter=Slot.A"}));
}

}  // namespace
}  // namespace racelab
