#!/usr/bin/env bash
# racelab_discover_tests (cmake/RacelabDiscoverTests.cmake) on an unchanged
# GoogleTest binary (unit_tests_program.cc): a scratch CMake project declares
# the binary, registers its tests, and `ctest --output-junit` runs them: one
# CTest test per listed test, the racy ones failed with their trace and
# replay command in their JUnit row, the others passed; EXTRA_ARGS narrow the
# list; a binary that cannot be listed is one failing test that says why.
# Usage: discover_tests_test.sh RACELAB UNIT_TESTS PLAIN_PROGRAM SOURCE_DIR
set -uo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: $0 RACELAB UNIT_TESTS PLAIN_PROGRAM SOURCE_DIR" >&2
  exit 2
fi
racelab=$(realpath "$1") unit_tests=$(realpath "$2") plain=$(realpath "$3") source_dir=$(realpath "$4")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-discover.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

mkdir -p "$scratch/project"
cat >"$scratch/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(discover NONE)
include(CTest)
include("$source_dir/cmake/RacelabDiscoverTests.cmake")
add_executable(unit_tests IMPORTED)
set_target_properties(unit_tests PROPERTIES IMPORTED_LOCATION "$unit_tests")
add_executable(plain IMPORTED)
set_target_properties(plain PROPERTIES IMPORTED_LOCATION "$plain")
racelab_discover_tests(unit_tests BUDGET 20 RACELAB_COMMAND "$racelab"
                       PROPERTIES LABELS racelab)
racelab_discover_tests(unit_tests TEST_PREFIX narrowed. STRATEGY dfs
                       EXTRA_ARGS --gtest_filter=Slot.* RACELAB_COMMAND "$racelab")
racelab_discover_tests(plain RACELAB_COMMAND "$racelab")
CMAKE
cmake -S "$scratch/project" -B "$scratch/build" >"$scratch/configure.out" 2>&1 ||
  { cat "$scratch/configure.out"; fail "the project does not configure"; }

echo "== ctest lists one test per test of the binary"
(cd "$scratch/build" && ctest -N) >"$scratch/listed.out" 2>&1
cat "$scratch/listed.out"
grep -q "Total Tests: 25$" "$scratch/listed.out" || fail "not 22 + 2 + 1 tests"
grep -q " unit_tests.LazyInit.UnsynchronizedInitRaces$" "$scratch/listed.out" || fail "a test is missing"
grep -q " narrowed.Slot.ExchangeTakesOnce$" "$scratch/listed.out" || fail "EXTRA_ARGS did not narrow"
grep -q " plain.racelab_listing$" "$scratch/listed.out" || fail "the unlistable binary is not one test"

echo "== ctest runs them under racelab"
(cd "$scratch/build" && ctest -j2 --output-junit "$scratch/junit.xml") >"$scratch/run.out" 2>&1
status=$?
tail -12 "$scratch/run.out"
[[ $status -ne 0 ]] || fail "ctest passed, though three tests race"
grep -q "80% tests passed, 5 tests failed out of 25" "$scratch/run.out" ||
  fail "not 5 failures of 25 (3 races, narrowed.Slot.CheckThenActTakesTwice, plain.racelab_listing)"
for t in unit_tests.Counter.UnlockedIncrementsRace unit_tests.Slot.CheckThenActTakesTwice \
         unit_tests.LazyInit.UnsynchronizedInitRaces narrowed.Slot.CheckThenActTakesTwice \
         plain.racelab_listing; do
  grep -q "[0-9] - $t (Failed)" "$scratch/run.out" || fail "$t did not fail"
done

echo "== the failing test's JUnit row holds the trace and the replay command"
row=$(python3 - "$scratch/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.get("name") == "unit_tests.LazyInit.UnsynchronizedInitRaces":
        out = case.find("system-out")
        print(case.get("status"), out.text if out is not None else "")
PY
)
grep -q "^fail" <<<"$row" || fail "the row is not failed: ${row:0:200}"
grep -q "data_race: ThreadSanitizer: data race" <<<"$row" || fail "the row has no finding"
grep -q "^trace (" <<<"$row" || fail "the row has no trace"
grep -q "racelab replay .* reruns it" <<<"$row" || fail "the row has no replay command"
grep -q "holds no test framework's listing option" "$scratch/run.out" ||
  grep -q "holds no test framework's listing option" "$scratch/junit.xml" || fail "the listing failure does not say why"
echo "PASS"
