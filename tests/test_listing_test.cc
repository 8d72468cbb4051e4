// The listings of GoogleTest, Catch2 and racelab's listing convention, and
// the command that runs one test alone, as `racelab explore --tests` reads and
// builds them (test_listing.h).
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
      one_test_command(TestFramework::kGoogleTest,
                       {"./t", "--gtest_filter=Slot.*", "--verbose"}, "Slot.A",
                       {}),
      (std::vector<std::string>{"./t", "--verbose", "--gtest_filter=Slot.A"}));
}

// Catch2: the user's test specs narrow the listing only; each test runs
// alone under a quoted spec, with the user's options kept as given (an
// option's value is no spec).
TEST(Catch2Listing, OneTestAloneKeepsTheOptionsAsGivenAndQuotesTheName) {
  EXPECT_EQ(one_test_command(TestFramework::kCatch2,
                             {"./t", "[slot]", "--order", "rand", "-f",
                              "names.txt", "--rng-seed=3", "Slot*", "-s"},
                             "take, then [give] \\ \"back\"", {}),
            (std::vector<std::string>{
                "./t", "--order", "rand", "--rng-seed=3", "-s",
                "\"take\\, then \\[give\\] \\\\ \\\"back\\\"\""}));
}

// A name is a pattern to Catch2: a '*' at its end selects more tests, and
// those are excluded by theirs; names that select each other cannot be told
// apart.
TEST(Catch2Listing, ANameThatSelectsOtherTestsExcludesThem) {
  const std::vector<std::string> every{"clean*", "clean but racy", "Clean",
                                       "other"};
  EXPECT_EQ(one_test_command(TestFramework::kCatch2, {"./t"}, "clean*", every),
            (std::vector<std::string>{
                "./t", "\"clean*\"~\"clean but racy\"~\"Clean\""}));
  EXPECT_EQ(one_test_command(TestFramework::kCatch2, {"./t"}, "-s", {"-s"}),
            (std::vector<std::string>{"./t", "\"-s\""}));
  EXPECT_THROW(one_test_command(TestFramework::kCatch2, {"./t"}, "Clean",
                                {"Clean", "clean"}),
               InputError);
  EXPECT_THROW(one_test_command(TestFramework::kCatch2, {"./t"}, "exclude:x",
                                {"exclude:x"}),
               InputError);
}

TEST(ListingConvention, OneTestAloneReplacesTheUsersChoice) {
  EXPECT_EQ(
      one_test_command(TestFramework::kListing,
                       {"./t", "--racelab-test=old", "-v"}, "new one", {}),
      (std::vector<std::string>{"./t", "-v", "--racelab-test=new one"}));
}

TEST(NameListing, OneNamePerLineEmptyLinesSkipped) {
  EXPECT_EQ(parse_name_listing("a test\r\n\nother, [x]\n"),
            (std::vector<std::string>{"a test", "other, [x]"}));
}

TEST(NameListing, AControlCharacterOrATwiceListedNameIsAnInputError) {
  EXPECT_THROW(parse_name_listing("ok\nbad\x01name\n"), InputError);
  try {
    parse_name_listing("same\nsame\n");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "line 2: test 'same' is listed twice");
  }
}

TEST(FrameworkNames, EveryFrameworkIsNamedAndFoundByItsName) {
  for (TestFramework f : {TestFramework::kGoogleTest, TestFramework::kCatch2,
                          TestFramework::kListing}) {
    EXPECT_EQ(framework_named(framework_name(f)), f);
  }
  EXPECT_EQ(framework_named("junit"), std::nullopt);
}

}  // namespace
}  // namespace racelab
