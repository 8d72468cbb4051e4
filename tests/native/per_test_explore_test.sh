#!/usr/bin/env bash
# racelab explore --tests on an unchanged GoogleTest binary
# (unit_tests_program.cc): each test explored alone, the racy ones found with
# their test named, the clean ones clean, the tests without a second thread
# proven by their one schedule and said so; a --gtest_filter narrows the
# list; --out writes one case per test; --jobs 2 judges the same; two
# shards merged are one run, a shard of other arguments refused; --list
# and --test; the same on a Catch2 binary (a test spec narrows, a name with ',' and '[' runs alone) and
# on a binary of racelab's listing convention; a binary of no framework is
# refused.
# Usage: per_test_explore_test.sh RACELAB UNIT_TESTS PLAIN_PROGRAM CATCH2_TESTS CONVENTION_TESTS
set -uo pipefail
if [[ $# -ne 5 ]]; then
  echo "usage: $0 RACELAB UNIT_TESTS PLAIN_PROGRAM CATCH2_TESTS CONVENTION_TESTS" >&2
  exit 2
fi
racelab=$1
unit_tests=$2
plain=$3
catch2_tests=$4
convention_tests=$5
check=$(dirname "$0")/check_explore_reports.py
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-per-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

echo "== every test alone"
"$racelab" explore --tests --budget 20 --out "$scratch/out" -- "$unit_tests" >"$scratch/all.out" 2>&1
status=$?
cat "$scratch/all.out"
[[ $status -eq 1 ]] || fail "exit status $status, not 1 (findings)"
grep -q ": 22 tests (gtest)$" "$scratch/all.out" || fail "not 22 tests listed"
grep -q "^Counter.LockedIncrementsAreClean: clean, " "$scratch/all.out" || fail "the locked counter is not clean"
grep -q "^Slot.ExchangeTakesOnce: clean, " "$scratch/all.out" || fail "the exchange is not clean"
race=$(grep -A3 "^Counter.UnlockedIncrementsRace:$" "$scratch/all.out")
grep -q "data_race" <<<"$race" || fail "the race is not found under its test"
grep -q "^Slot.CheckThenActTakesTwice:$" "$scratch/all.out" || fail "the check-then-act is not found"
for t in Counter.LockedIncrementsAreClean Slot.ExchangeTakesOnce Atomic.FetchAddCounts \
         Queue.ProducerConsumerWithConditionVariable LazyInit.CallOnceIsClean; do
  grep -q "^$t: clean, 20 schedules (pct)$" "$scratch/all.out" || fail "$t is not clean over 20 schedules"
done
race=$(grep -A3 "^LazyInit.UnsynchronizedInitRaces:$" "$scratch/all.out")
grep -q "data_race" <<<"$race" || fail "the lazy init race is not found under its test"
for t in Plain.Arithmetic Plain.Vector Plain.Strings Plain.Map Plain.Sort Plain.Optional \
         Plain.Exceptions Plain.Accumulate Typed/0.ZeroIsZero Typed/1.ZeroIsZero \
         Typed/2.ZeroIsZero Small/Params.Square/0 Small/Params.Square/1 Small/Params.Square/2; do
  grep -q "^$t: clean, verified in one schedule (nothing to interleave)$" "$scratch/all.out" || fail "$t is not proven by one schedule"
done
grep -q "^22 tests: 3 with findings, 14 verified in one schedule$" "$scratch/all.out" || fail "wrong totals"
cases=$(grep -c '"scenario": "' "$scratch/out/results.json")
[[ $cases -eq 22 ]] || fail "results.json has $cases cases, not 22"
# The reports read as explore: each test found, clean or verified, named by
# its test, with its search's wall time.
"$check" "$scratch/out" explore_tests "$(basename "$unit_tests")" 3 5 14 "$unit_tests" ||
  fail "the reports of --tests do not read as explore"

verdicts() {  # the lines that judge a test, and the totals
  # Not the program's output headers: their byte counts hold gtest's timings;
  # nor the notes on stderr made the moment a finding is (where they fall
  # among the other lines depends on the jobs' timing).
  grep -E "^[^ ].*: clean, |^[^ ].*:$|found at schedule|^[0-9]+ tests: " "$1" |
    grep -Ev "^program (stdout|stderr) \(|^racelab explore --tests: " |
    sed 's/(pid=[0-9]*)//'
}
echo "== --jobs 2: the same verdicts, in the same order"
"$racelab" explore --tests --budget 20 --jobs 2 -- "$unit_tests" >"$scratch/jobs.out" 2>&1
status=$?
[[ $status -eq 1 ]] || { cat "$scratch/jobs.out"; fail "--jobs 2: exit status $status, not 1"; }
if [[ $(verdicts "$scratch/all.out") != "$(verdicts "$scratch/jobs.out")" ]]; then
  diff <(verdicts "$scratch/all.out") <(verdicts "$scratch/jobs.out") >&2
  fail "--jobs 2 judged differently from one job"
fi

echo "== --shard K/N, joined by racelab merge: the same cases as one run"
"$racelab" explore --tests --budget 20 --shard 1/2 --out "$scratch/shard1" -- "$unit_tests" >"$scratch/shard1.out" 2>&1
grep -q ": 22 tests (gtest), shard 1/2: 11 of them$" "$scratch/shard1.out" || { cat "$scratch/shard1.out"; fail "shard 1/2 is not 11 tests"; }
"$racelab" explore --tests --budget 20 --shard 2/2 --jobs 2 --out "$scratch/shard2" -- "$unit_tests" >"$scratch/shard2.out" 2>&1
"$racelab" merge "$scratch/shard1" "$scratch/shard2" --out "$scratch/merged" >"$scratch/merge.out" 2>&1
status=$?
[[ $status -eq 1 ]] || { cat "$scratch/merge.out"; fail "merge: exit status $status, not 1 (three findings)"; }
cases() {  # scenario and observed verdict of every case, in order
  python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cases"]: print(c["scenario"], c["observed"])' "$1"
}
if [[ $(cases "$scratch/out/results.json") != "$(cases "$scratch/merged/results.json")" ]]; then
  diff <(cases "$scratch/out/results.json") <(cases "$scratch/merged/results.json") >&2
  fail "the merged shards differ from one run"
fi
"$check" "$scratch/merged" explore_tests "$(basename "$unit_tests")" 3 5 14 "$unit_tests" ||
  fail "the merged shards' reports do not read as explore"

echo "== a shard of the same binary run with other arguments is refused"
"$racelab" explore --tests --budget 20 --shard 2/2 --jobs 2 --out "$scratch/shard2.other" \
  -- "$unit_tests" --gtest_color=no >/dev/null 2>&1
"$racelab" merge "$scratch/shard1" "$scratch/shard2.other" --out "$scratch/merged.other" >"$scratch/merge.other.out" 2>&1
status=$?
[[ $status -eq 2 && $(wc -l <"$scratch/merge.other.out") -eq 1 ]] ||
  { cat "$scratch/merge.other.out"; fail "merging shards of other arguments: exit status $status, want 2 and one line"; }
grep -q "^racelab: merge: $scratch/shard2.other: .*program arguments" "$scratch/merge.other.out" ||
  { cat "$scratch/merge.other.out"; fail "the refusal does not name the shard and its arguments"; }
[[ ! -e $scratch/merged.other ]] || fail "a refused merge left its --out folder"

echo "== --list prints the names; --test explores one"
"$racelab" explore --tests --list -- "$unit_tests" --gtest_filter='Counter.*' >"$scratch/list.out" 2>&1
[[ $? -eq 0 ]] || { cat "$scratch/list.out"; fail "--list failed"; }
[[ $(cat "$scratch/list.out") == $'Counter.LockedIncrementsAreClean\nCounter.UnlockedIncrementsRace' ]] ||
  { cat "$scratch/list.out"; fail "--list did not print the two Counter tests"; }
"$racelab" explore --tests --test Plain.Map -- "$unit_tests" >"$scratch/one.out" 2>&1
[[ $? -eq 0 ]] || { cat "$scratch/one.out"; fail "--test Plain.Map failed"; }
grep -q "^1 test: 0 with findings, 1 verified in one schedule$" "$scratch/one.out" || { cat "$scratch/one.out"; fail "--test did not explore one test"; }
"$racelab" explore --tests --test No.Such -- "$unit_tests" >"$scratch/none.out" 2>&1
status=$?
[[ $status -eq 2 && $(wc -l <"$scratch/none.out") -eq 1 ]] || { cat "$scratch/none.out"; fail "--test of an unknown name: exit $status, want 2 and one line"; }
grep -q "lists no test named 'No.Such'" "$scratch/none.out" || fail "the error does not name the test"

echo "== Catch2: a test spec narrows; an escaped name runs alone"
"$racelab" explore --tests --budget 20 -- "$catch2_tests" "[counter]" >"$scratch/catch2.out" 2>&1
status=$?
cat "$scratch/catch2.out" | grep -v '^ \|^[0-9]* |'
[[ $status -eq 1 ]] || fail "Catch2: exit status $status, not 1"
grep -q ": 2 tests (catch2)$" "$scratch/catch2.out" || fail "Catch2: the tag did not narrow to 2 tests"
race=$(grep -A3 "^counter, unlocked \[two threads\] increments race:$" "$scratch/catch2.out")
grep -q "data_race" <<<"$race" || fail "Catch2: the race is not found under its test"
grep -q "^counter, locked increments are clean: clean, 20 schedules (pct)$" "$scratch/catch2.out" || fail "Catch2: the locked test is not clean"

echo "== the listing convention"
"$racelab" explore --tests --budget 20 -- "$convention_tests" >"$scratch/convention.out" 2>&1
status=$?
[[ $status -eq 1 ]] || { cat "$scratch/convention.out"; fail "convention: exit status $status, not 1"; }
grep -q ": 3 tests (listing)$" "$scratch/convention.out" || fail "convention: not 3 tests"
grep -q "^3 tests: 1 with findings, 1 verified in one schedule$" "$scratch/convention.out" || { cat "$scratch/convention.out"; fail "convention: wrong totals"; }

echo "== a --gtest_filter narrows the list"
"$racelab" explore --tests --budget 20 -- "$unit_tests" --gtest_filter='Slot.*' >"$scratch/slot.out" 2>&1
[[ $? -eq 1 ]] || fail "the Slot tests did not find the check-then-act"
grep -q "^2 tests: 1 with findings, 0 verified in one schedule$" "$scratch/slot.out" || { cat "$scratch/slot.out"; fail "the filter did not narrow to 2 tests"; }

echo "== the failing test's schedule replays it alone"
schedule=$(sed -n 's/^schedule saved: \([^ ]*\) .*/\1/p' "$scratch/slot.out" | head -1)
[[ -f $schedule ]] || { cat "$scratch/slot.out"; fail "no saved schedule"; }
"$racelab" replay "$schedule" >"$scratch/replay.out" 2>&1
[[ $? -eq 1 ]] || { cat "$scratch/replay.out"; fail "the replay did not fail again"; }
grep -q "CheckThenActTakesTwice" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "the replay is not of the failing test"; }

echo "== a binary of no framework is refused, and so is a wrong --framework"
"$racelab" explore --tests -- "$plain" >"$scratch/plain.out" 2>&1
status=$?
cat "$scratch/plain.out"
[[ $status -eq 2 ]] || fail "exit status $status, not 2"
[[ $(wc -l <"$scratch/plain.out") -eq 1 ]] || fail "not one line"
grep -q "holds no test framework's listing option" "$scratch/plain.out" || fail "the error does not say why"
"$racelab" explore --tests --framework catch2 -- "$unit_tests" >"$scratch/wrong.out" 2>&1
status=$?
cat "$scratch/wrong.out"
[[ $status -eq 2 && $(wc -l <"$scratch/wrong.out") -eq 1 ]] || fail "--framework catch2 on a GoogleTest binary: exit $status, want 2 and one line"
echo "PASS"
