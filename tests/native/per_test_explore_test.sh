#!/usr/bin/env bash
# racelab explore --tests on an unchanged GoogleTest binary
# (unit_tests_program.cc): each test explored alone, the racy ones found with
# their test named, the clean ones clean, the tests without a second thread
# proven by their one schedule and said so; a --gtest_filter narrows the list; --out writes one
# case per test; a binary that is not a GoogleTest one is refused.
# Usage: per_test_explore_test.sh RACELAB UNIT_TESTS PLAIN_PROGRAM
set -uo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 RACELAB UNIT_TESTS PLAIN_PROGRAM" >&2
  exit 2
fi
racelab=$1
unit_tests=$2
plain=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-per-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

echo "== every test alone"
"$racelab" explore --tests --budget 50 --out "$scratch/out" -- "$unit_tests" >"$scratch/all.out" 2>&1
status=$?
cat "$scratch/all.out"
[[ $status -eq 1 ]] || fail "exit status $status, not 1 (findings)"
grep -q "^9 tests$\|: 9 tests$" "$scratch/all.out" || fail "not 9 tests listed"
grep -q "^Counter.LockedIncrementsAreClean: clean, " "$scratch/all.out" || fail "the locked counter is not clean"
grep -q "^Slot.ExchangeTakesOnce: clean, " "$scratch/all.out" || fail "the exchange is not clean"
race=$(grep -A3 "^Counter.UnlockedIncrementsRace:$" "$scratch/all.out")
grep -q "data_race" <<<"$race" || fail "the race is not found under its test"
grep -q "^Slot.CheckThenActTakesTwice:$" "$scratch/all.out" || fail "the check-then-act is not found"
for t in Plain.Arithmetic Plain.Vector Small/Params.Square/0 Small/Params.Square/1 Small/Params.Square/2; do
  grep -q "^$t: clean, verified in one schedule (nothing to interleave)$" "$scratch/all.out" || fail "$t is not proven by one schedule"
done
grep -q "^9 tests: 2 with findings, 5 verified in one schedule$" "$scratch/all.out" || fail "wrong totals"
cases=$(grep -c '"scenario": "' "$scratch/out/results.json")
[[ $cases -eq 9 ]] || fail "results.json has $cases cases, not 9"

echo "== a --gtest_filter narrows the list"
"$racelab" explore --tests --budget 50 -- "$unit_tests" --gtest_filter='Slot.*' >"$scratch/slot.out" 2>&1
[[ $? -eq 1 ]] || fail "the Slot tests did not find the check-then-act"
grep -q "^2 tests: 1 with findings, 0 verified in one schedule$" "$scratch/slot.out" || { cat "$scratch/slot.out"; fail "the filter did not narrow to 2 tests"; }

echo "== the failing test's schedule replays it alone"
schedule=$(sed -n 's/^schedule saved: \([^ ]*\) .*/\1/p' "$scratch/slot.out" | head -1)
[[ -f $schedule ]] || { cat "$scratch/slot.out"; fail "no saved schedule"; }
"$racelab" replay "$schedule" >"$scratch/replay.out" 2>&1
[[ $? -eq 1 ]] || { cat "$scratch/replay.out"; fail "the replay did not fail again"; }
grep -q "CheckThenActTakesTwice" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "the replay is not of the failing test"; }

echo "== a binary that is not a GoogleTest one is refused"
"$racelab" explore --tests -- "$plain" >"$scratch/plain.out" 2>&1
status=$?
cat "$scratch/plain.out"
[[ $status -eq 2 ]] || fail "exit status $status, not 2"
[[ $(wc -l <"$scratch/plain.out") -eq 1 ]] || fail "not one line"
echo "PASS"
