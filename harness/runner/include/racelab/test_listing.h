// The tests of an unchanged test binary, as its framework lists them, for
// `racelab explore --tests -- ./unit_tests [args]`: each test is then
// explored on its own, through the framework's own filter.
//
// Three frameworks (docs/controlled-mode.md, "Each test of a test binary
// alone"):
// - GoogleTest: listed by --gtest_list_tests after the user's arguments (a
//   --gtest_filter among them narrows the list); each test runs alone with
//   --gtest_filter=<Suite.Name> in place of the user's filter.
// - Catch2 (v2): listed by --list-test-names-only after the user's
//   arguments (a test spec among them narrows the list); each test runs
//   alone with the user's options, as given, and in place of their specs
//   one that selects that test only (Catch2 reads a name as a pattern:
//   the spec quotes it and excludes the other tests it would select).
// - Any other binary, by racelab's listing convention: run with
//   --racelab-list-tests it prints one test name per line and ends with
//   status 0; run with --racelab-test=<name> it runs that test only.
// The framework is read from the binary itself (the option text its
// framework's code holds), or named with --framework.
#ifndef RACELAB_TEST_LISTING_H_
#define RACELAB_TEST_LISTING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racelab {

enum class TestFramework { kGoogleTest, kCatch2, kListing };

// "gtest", "catch2", "listing": the --framework names.
std::string_view framework_name(TestFramework framework);
std::optional<TestFramework> framework_named(std::string_view name);

// The framework whose listing option the binary `program` (a path, or a
// name looked up in PATH) holds, in the order GoogleTest, Catch2, the
// convention; none when it holds none. Throws InputError for a program that
// cannot be found.
std::optional<TestFramework> detect_test_framework(const std::string& program);

// "Suite.Name" for every test of a --gtest_list_tests listing, in its order.
// Lines that are neither a suite ("Suite." with an optional "  # ..."
// comment) nor a test under one ("  Name", same comment) are not part of the
// listing (gtest_main's "Running main() from ..."). Throws InputError when a
// test line comes before any suite or a name holds a character no test
// name has (a space, a quote, a control character).
std::vector<std::string> parse_gtest_listing(std::string_view text);

// One name per line (Catch2's --list-test-names-only, the convention's
// --racelab-list-tests): empty lines are skipped, a trailing '\r' dropped.
// Throws InputError for a name with a control character in it, or two
// tests of the same name.
std::vector<std::string> parse_name_listing(std::string_view text);

// Runs the program of `command` (the binary, then its arguments) once, with
// no channel (a plain run), with the framework's listing option after the
// arguments, and parses what it prints. Throws InputError, naming the
// binary, when it cannot be run, does not end within `seconds` (or, but for
// Catch2, whose status is its count of tests, with status 0), prints more
// than a listing may hold, or lists no test.
std::vector<std::string> list_tests(TestFramework framework,
                                    const std::vector<std::string>& command,
                                    int seconds = 60);

// The tests a name given to the framework's filter may select besides its
// own: for Catch2, every test of the binary, hidden ones too (listed with
// the user's options and the spec "*"); none for the others, whose filters
// take a name exactly. Throws as list_tests does.
std::vector<std::string> tests_a_name_may_select(
    TestFramework framework, const std::vector<std::string>& command,
    int seconds = 60);

// The command that runs `test` alone (see the top of this file);
// `selectable` is what tests_a_name_may_select returned. Throws InputError
// when the framework cannot run the test alone (two Catch2 tests whose
// names differ only in case).
std::vector<std::string> one_test_command(
    TestFramework framework, const std::vector<std::string>& command,
    const std::string& test, const std::vector<std::string>& selectable);

}  // namespace racelab

#endif  // RACELAB_TEST_LISTING_H_
