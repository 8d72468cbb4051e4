#!/usr/bin/env bash
# racelab replay FILE --stacks and --debug on schedules of an unchanged
# GoogleTest binary (unit_tests_program.cc): --stacks prints the running
# thread's call stack at every decision, in the test's own code, then the
# same verdict as a plain replay; --debug runs the program under gdb on the
# schedule and stops at the failure: at TSan's report, in the racing access,
# for a data race; at the schedule's last decision for a failed assertion;
# both refuse a catalog schedule with one line.
# Usage: replay_debug_test.sh RACELAB UNIT_TESTS CATALOG_SCHEDULE
set -uo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 RACELAB UNIT_TESTS CATALOG_SCHEDULE" >&2
  exit 2
fi
racelab=$1 unit_tests=$2 catalog_schedule=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-replay-debug.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME=$scratch/state
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
schedule_of() {  # schedule_of TEST: explores TEST alone, prints its schedule
  "$racelab" explore --tests --test "$1" -- "$unit_tests" >"$scratch/$1.out" 2>&1
  sed -n 's/^schedule saved: \([^ ]*\) .*/\1/p' "$scratch/$1.out" | head -1
}
race=$(schedule_of Counter.UnlockedIncrementsRace)
[[ -f $race ]] || fail "no schedule for the race"
assertion=$(schedule_of Slot.CheckThenActTakesTwice)
[[ -f $assertion ]] || fail "no schedule for the check-then-act"

echo "== --stacks"
"$racelab" replay "$race" --stacks >"$scratch/stacks.out" 2>&1
status=$?
[[ $status -eq 1 ]] || { cat "$scratch/stacks.out"; fail "--stacks: exit $status, not 1 (the finding again)"; }
grep -q "^call stacks at each decision (the running thread's):$" "$scratch/stacks.out" || fail "no stacks heading"
decisions=$(grep -c "^decision [0-9]*: thread [0-9]* at '[^']*', then thread [0-9]* runs$" "$scratch/stacks.out")
[[ $decisions -ge 5 ]] || { cat "$scratch/stacks.out"; fail "$decisions decisions with a stack, want at least 5"; }
grep -q "^    #0 .*Counter_UnlockedIncrementsRace_Test.*unit_tests_program.cc:[0-9]*" "$scratch/stacks.out" ||
  fail "no stack starts in the test's own code"
grep -q "^  data_race: ThreadSanitizer: data race" "$scratch/stacks.out" || fail "--stacks lost the verdict"
echo "   $decisions decisions, each with its stack"

echo "== --debug stops at TSan's report, in the racing access"
printf 'bt 6\nquit\n' | "$racelab" replay "$race" --debug >"$scratch/debug.out" 2>&1
grep -q "hit Breakpoint .* __tsan_on_report" "$scratch/debug.out" || { cat "$scratch/debug.out"; fail "gdb did not stop at the report"; }
[[ $(grep -A8 "hit Breakpoint" "$scratch/debug.out") == *Counter_UnlockedIncrementsRace_Test* ]] ||
  { cat "$scratch/debug.out"; fail "the stopped thread is not in the racing test"; }

echo "== --debug stops at the last decision of a failed assertion"
printf 'bt 1\nquit\n' | "$racelab" replay "$assertion" --debug >"$scratch/debug2.out" 2>&1
grep -q "hit Breakpoint .*racelab_failing_step" "$scratch/debug2.out" || { cat "$scratch/debug2.out"; fail "gdb did not stop at the last decision"; }
grep -q "^racelab: the schedule's last decision ([0-9]*)" "$scratch/debug2.out" || fail "the runtime did not say which decision"

echo "== a catalog schedule is refused"
for flag in --stacks --debug; do
  "$racelab" replay "$catalog_schedule" "$flag" >"$scratch/catalog.out" 2>&1
  status=$?
  [[ $status -eq 2 && $(wc -l <"$scratch/catalog.out") -eq 1 ]] ||
    { cat "$scratch/catalog.out"; fail "$flag on a catalog schedule: exit $status, want 2 and one line"; }
done
echo "PASS"
