#!/usr/bin/env bash
# A user's kit test binary end to end (kit_macro_fixture.cc): a failing
# test's message ends with the command that replays it; that command
# replays the schedule through the binary and prints the trace; a schedule
# of another test is refused as such; a crash replays; with
# RACELAB_REPORT_DIR the five reports are written and name the user's file.
# Usage: tests/kit/replay_through_binary.sh FIXTURE_BINARY
set -uo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 FIXTURE_BINARY" >&2
  exit 2
fi
fixture=$1
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-replay.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch XDG_STATE_HOME=$scratch
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

echo "== a failing clean test prints the replay command last"
racy=Racelab/RacyCell.Clean/ends_in_racy_add__controlled__tsan
"$fixture" --gtest_filter="$racy" >"$scratch/fail.out" 2>&1 && fail "the racy store's clean test passed"
# GoogleTest prints the message, then "[  FAILED  ] <test>": the line before
# that is the end of the message.
last=$(grep -B2 -m1 "^\[  FAILED  \] $racy" "$scratch/fail.out" | grep -v '^\[' | grep -v '^$' | tail -1)
echo "   $last"
[[ $last == "replay: RACELAB_REPLAY="*" --gtest_filter=$racy" ]] || { cat "$scratch/fail.out"; fail "the message does not end with the replay command"; }
command=${last#replay: }
schedule=$(sed -n 's/^replay: RACELAB_REPLAY=\([^ ]*\) .*/\1/p' <<<"$last")
[[ -f $schedule ]] || fail "no schedule file $schedule"

echo "== the command replays through the test binary and prints the trace"
eval "$command" >"$scratch/replay.out" 2>&1 && fail "the replay of a failing test passed"
grep -q "^replaying $schedule" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "no replay"; }
grep -q "replay followed the recorded decisions exactly" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "the replay did not follow the file"; }
grep -q "data_race/tsan" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "the replay did not reproduce the race"; }
grep -q "| thread 0" "$scratch/replay.out" || { cat "$scratch/replay.out"; fail "no trace"; }

echo "== a schedule of another test is refused"
RACELAB_REPLAY=$schedule "$fixture" --gtest_filter="Racelab/LockedCell.Clean/ends_in_add__controlled__tsan" >"$scratch/other.out" 2>&1 && fail "another test's schedule was accepted"
grep -q "the file belongs to another test" "$scratch/other.out" || { cat "$scratch/other.out"; fail "no 'belongs to another test'"; }

echo "== a crash is caught, saved and replays"
abort=Racelab/AbortingCell.Caught/any_scenario__controlled__all
"$fixture" --gtest_filter="$abort" >"$scratch/abort.out" 2>&1 || { cat "$scratch/abort.out"; fail "the crash was not caught"; }
grep -q "\[crash/crash\]" "$scratch/abort.out" || { cat "$scratch/abort.out"; fail "no crash finding"; }
crash_command=$(sed -n 's/^replay: //p' "$scratch/abort.out" | tail -1)
[[ -n $crash_command ]] || fail "no replay command for the crash"
eval "$crash_command" >"$scratch/abort-replay.out" 2>&1 || { cat "$scratch/abort-replay.out"; fail "the crash did not replay"; }
grep -q "\[crash/crash\]" "$scratch/abort-replay.out" || { cat "$scratch/abort-replay.out"; fail "the replay shows no crash"; }

echo "== RACELAB_REPORT_DIR: the five reports, from two processes"
reports=$scratch/reports
RACELAB_REPORT_DIR=$reports "$fixture" --gtest_filter="$abort" >/dev/null 2>&1 || fail "the caught test failed"
RACELAB_REPORT_DIR=$reports "$fixture" --gtest_filter="Racelab/RacyCellCaught.Caught/any_scenario__controlled__all" >/dev/null 2>&1 || fail "the caught test failed"
for file in results.json junit.xml results.sarif summary.md index.html; do
  [[ -s $reports/$file ]] || fail "no $file"
done
cases=$(grep -c '"subject": "cell/\(racy\|aborting\)"' "$reports/results.json")
echo "   results.json: $cases cases of cell/racy and cell/aborting"
[[ $cases -eq 2 ]] || fail "results.json has $cases cases, not 2"
grep -q "kit_macro_fixture.cc" "$reports/results.sarif" || fail "results.sarif does not name the store's file"
grep -q "kit_macro_fixture.cc" "$reports/results.json" || fail "results.json does not name the store's file"
echo "PASS"
