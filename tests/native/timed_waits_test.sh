#!/usr/bin/env bash
# racelab explore --tests on a GoogleTest binary of timed-wait tests that
# measure their own waits and sleeps (timed_waits_program.cc): every test is
# clean, as in a plain run, but the one with a data race, which is found
# under its name. The run's clocks (docs/controlled-mode.md, "Time") make a
# timeout seen only at its deadline.
# Usage: timed_waits_test.sh RACELAB TIMED_WAITS
set -uo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 RACELAB TIMED_WAITS" >&2
  exit 2
fi
racelab=$1
program=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-timed-waits.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

echo "== plain"
"$program" --gtest_filter=-RacyTest.* >"$scratch/plain.out" 2>&1 ||
  { cat "$scratch/plain.out"; fail "a plain run of the clean tests failed"; }

echo "== explore --tests"
"$racelab" explore --tests --budget 30 -- "$program" >"$scratch/explore.out" 2>&1
status=$?
cat "$scratch/explore.out"
[[ $status -eq 1 ]] || fail "exit status $status, not 1 (the racy test)"
tests=$("$program" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}')
[[ -n $tests ]] || fail "the binary lists no tests"
while IFS= read -r test; do
  if [[ $test == RacyTest.* ]]; then
    grep -A3 "^$test:$" "$scratch/explore.out" | grep -q "data_race" ||
      fail "$test: the race is not found under its name"
  else
    grep -q "^$test: clean, " "$scratch/explore.out" || fail "$test is not clean"
  fi
done <<<"$tests"
echo "PASS"
