// The tests of an unchanged test binary, as its framework lists them, for
// `racelab explore --tests -- ./unit_tests [filter]`: each test is then
// explored on its own, through the framework's own filter.
//
// GoogleTest only, for now: the binary is run once with --gtest_list_tests
// (after the user's arguments, so a --gtest_filter among them narrows the
// list), and each test runs alone with --gtest_filter=<Suite.Name>.
#ifndef RACELAB_TEST_LISTING_H_
#define RACELAB_TEST_LISTING_H_

#include <string>
#include <string_view>
#include <vector>

namespace racelab {

// "Suite.Name" for every test of a --gtest_list_tests listing, in its order.
// Lines that are neither a suite ("Suite." with an optional "  # ..."
// comment) nor a test under one ("  Name", same comment) are not part of the
// listing (gtest_main's "Running main() from ..."). Throws InputError when a
// test line comes before any suite or a name holds a character no test
// name has (a space, a quote, a control character).
std::vector<std::string> parse_gtest_listing(std::string_view text);

// Runs the program of `command` (the binary, then its arguments) once, with
// no channel (a plain run), with --gtest_list_tests after the arguments, and
// parses what it prints. Throws InputError, naming the binary, when it cannot
// be run, does not end with status 0 within `seconds`, prints more than a
// listing may hold, or lists no test.
std::vector<std::string> list_gtest_tests(
    const std::vector<std::string>& command, int seconds = 60);

// The command that runs `test` alone: the user's arguments without their
// --gtest_filter, then --gtest_filter=<test>.
std::vector<std::string> one_gtest_command(
    const std::vector<std::string>& command, const std::string& test);

}  // namespace racelab

#endif  // RACELAB_TEST_LISTING_H_
