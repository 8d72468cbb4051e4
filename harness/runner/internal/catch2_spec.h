// How Catch2 (v2) reads its command line, for running one test of an
// unchanged Catch2 binary by its exact name.
//
// Catch2 has no option that selects a test by its exact name: a name is a
// pattern, matched without regard to case and to whitespace at its ends,
// with a '*' at either end a wildcard (even escaped), and it selects hidden
// tests too. So one test runs alone under a spec that quotes its name and
// excludes, by theirs, every other test of the binary that the name's
// pattern also selects: `"clean*"~"clean but racy"`. The quotes keep a name
// that starts with '-' or '~' from being read as an option or an exclusion.
#ifndef RACELAB_RUNNER_CATCH2_SPEC_H_
#define RACELAB_RUNNER_CATCH2_SPEC_H_

#include <string>
#include <string_view>
#include <vector>

namespace racelab::catch2 {

// Whether Catch2 selects the test named `name` by the name pattern
// `pattern` (the pattern's text after its escapes are read).
bool pattern_selects(std::string_view pattern, std::string_view name);

// The one-argument test spec that selects `test` and no other test of
// `every_test` (the binary's tests, hidden ones too). Throws InputError,
// naming both tests, when no spec can tell `test` from another one (their
// names select each other: they differ only in case, or in a wildcard), or
// when the name starts with "exclude:" (which Catch2 reads as an exclusion
// in any spec).
std::string exact_spec(const std::string& test,
                       const std::vector<std::string>& every_test);

// The user's arguments split into what Catch2 reads as options (each with
// its value, in their order) and what it reads as test specs (the
// positional arguments, and -f/--input-file with its file, whose lines are
// specs).
struct Arguments {
  std::vector<std::string> options;
  std::vector<std::string> specs;
};
Arguments split_arguments(const std::vector<std::string>& args);

}  // namespace racelab::catch2

#endif  // RACELAB_RUNNER_CATCH2_SPEC_H_
