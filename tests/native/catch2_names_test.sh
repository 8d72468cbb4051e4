#!/usr/bin/env bash
# Catch2 test names that Catch2 would read as something else
# (catch2_names_program.cc), explored under their exact names: --test
# 'clean*' explores that test only (the racy 'clean but racy' its wildcard
# also selects is excluded); names like an option or an exclusion run as
# tests, never as options (a test named --out=FILE writes no FILE); the
# user's own options, with their values, are kept as given; and
# racelab_discover_tests makes one CTest test of each name, ';' and
# unmatched brackets in it, each run alone.
# Usage: catch2_names_test.sh RACELAB CATCH2_NAMES SOURCE_DIR
set -uo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 RACELAB CATCH2_NAMES SOURCE_DIR" >&2
  exit 2
fi
racelab=$(realpath "$1") names=$(realpath "$2") source_dir=$(realpath "$3")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-catch2-names.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
cd "$scratch" || fail "no scratch folder"

echo "== --test 'clean*' explores that test, not what its wildcard selects"
"$racelab" explore --tests --test 'clean*' --budget 20 -- "$names" >wild.out 2>&1
status=$?
cat wild.out
[[ $status -eq 0 ]] || fail "exit status $status, not 0 (the clean test alone)"
grep -q '^clean\*: clean, 20 schedules (pct)$' wild.out || fail "'clean*' is not clean"
! grep -q "data_race" wild.out || fail "the racy test ran under the clean one's name"

echo "== every test under its own name; the user's options kept as given"
"$racelab" explore --tests --budget 20 -- "$names" --order rand --rng-seed 7 >all.out 2>&1
status=$?
grep -v '^ \|^[0-9]* |' all.out
[[ $status -eq 1 ]] || fail "exit status $status, not 1"
grep -q ": 6 tests (catch2)$" all.out || fail "not 6 tests listed"
for racy in 'clean but racy' 'semi;colon \[bracket'; do
  [[ $(grep -A3 "^$racy:$" all.out) == *data_race* ]] || fail "'$racy' has no race"
done
grep -q '^clean\*: clean, 20 schedules (pct)$' all.out || fail "'clean*' is not clean"
grep -q '^other\] side;: clean, 20 schedules (pct)$' all.out || fail "'other] side;' is not clean"
grep -q '^--out=clobbered.txt: clean, verified in one schedule' all.out || fail "'--out=clobbered.txt' did not run as a test"
grep -q '^~racy: clean, verified in one schedule' all.out || fail "'~racy' did not run as a test"
grep -q "^6 tests: 2 with findings, 2 verified in one schedule$" all.out || fail "wrong totals"
[[ ! -e clobbered.txt ]] || fail "a test name was read as --out"

echo "== racelab_discover_tests: one CTest test per name, each alone"
mkdir -p project
cat >project/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(names NONE)
include(CTest)
include("$source_dir/cmake/RacelabDiscoverTests.cmake")
add_executable(names IMPORTED)
set_target_properties(names PROPERTIES IMPORTED_LOCATION "$names")
racelab_discover_tests(names BUDGET 20 RACELAB_COMMAND "$racelab")
CMAKE
cmake -S project -B build >configure.out 2>&1 || { cat configure.out; fail "the project does not configure"; }
(cd build && ctest -N) >listed.out 2>&1
cat listed.out
grep -q "Total Tests: 6$" listed.out || fail "not 6 CTest tests"
grep -qF " names.semi;colon [bracket" listed.out || fail "the name with ';' and '[' is lost"
grep -qF " names.other] side;" listed.out || fail "the name with ']' is lost"
(cd build && ctest -j2) >run.out 2>&1
tail -8 run.out
grep -q "67% tests passed, 2 tests failed out of 6" run.out || fail "not the 2 racy tests failed of 6"
grep -qF "names.semi;colon [bracket (Failed)" run.out || fail "the racy name with ';' did not fail"
grep -qF "names.clean but racy (Failed)" run.out || fail "'clean but racy' did not fail"
[[ ! -e build/clobbered.txt ]] || fail "a test name was read as --out under CTest"
echo "PASS"
