#!/usr/bin/env bash
# `racelab explore` stopped while it shrinks its finding keeps the finding as
# found: the schedule file is written the moment the finding is made, before
# shrinking starts; SIGTERM or SIGINT then prints the finding (its kind, the
# schedule it was found at, the saved file) and exits 1, never 130/143 or
# "clean"; after SIGKILL the file is there. Every saved file replays to the
# same kind. Under explore --tests, the tests that ran are printed, the
# interrupted one as found. The program's reruns wait until they are killed (`hold`), so
# the signal lands in the shrink whatever the machine's load: the test waits
# for the file to appear, not for a time.
#   interrupted_shrink_test.sh <racelab> <long_shrink_program>
set -u
racelab=$1 program=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Starts a search of `hold` saving into $dir/$1.schedule, waits until that
# file appears or the shrink's first rerun has started (marker.rerun), then
# sends signal $1. Sets rc, out, err.
stop_while_shrinking() {
  local sig=$1 schedule=$dir/$1.schedule
  rm -f "$dir/marker" "$dir/marker.rerun"
  "$racelab" explore --strategy pct --budget 1 --seed 1 --hang-seconds 3600 \
    --save-schedule "$schedule" -- "$program" hold "$dir/marker" \
    >"$dir/$sig.out" 2>"$dir/$sig.err" &
  local pid=$!
  # Polls the files; the verdict does not depend on how long it takes.
  while [[ ! -s $schedule && ! -e $dir/marker.rerun ]] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
  done
  [[ -s $schedule ]] || fail "$sig: no schedule saved when the shrink started"
  kill "-$sig" "$pid" 2>/dev/null
  # Under TSan a signal can be lost before racelab's handler sees it (open:
  # it happened once in a loaded run, with no trace of the handler having
  # run); the same signal again from the same sender is the same request,
  # so it is sent again every 20 s while racelab runs, and the log says so.
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.5
    waited=$((waited + 1))
    if ((waited % 40 == 0)); then
      echo "note: $sig sent again after $((waited / 2)) s" >&2
      kill "-$sig" "$pid" 2>/dev/null
    fi
  done
  wait "$pid"
  rc=$?
  out=$(cat "$dir/$sig.out")
  err=$(cat "$dir/$sig.err")
}

# The saved schedule reruns to the same finding (`hold` races again once its
# marker is gone).
check_replay() {
  local sig=$1
  rm -f "$dir/marker" "$dir/marker.rerun"
  local replayed
  replayed=$("$racelab" replay "$dir/$sig.schedule" 2>&1)
  local replay_rc=$?
  [[ $replay_rc == 1 && $replayed == *$'\n  data_race: ThreadSanitizer: data race'* ]] ||
    fail "$sig: the saved schedule replays with exit $replay_rc, want 1 and the data race: $replayed"
}

for sig in TERM INT; do
  before=$failures
  stop_while_shrinking "$sig"
  [[ $rc == 1 ]] || fail "$sig: exit $rc, want 1 (the finding's): $out $err"
  [[ $err == *"found at schedule 1 (pct, seed 1): data_race: ThreadSanitizer: data race"* ]] ||
    fail "$sig: the finding was not printed when it was found: $err"
  [[ $out == *": found at schedule 1 of 1 (pct, seed 1), shrinking interrupted after "* ]] ||
    fail "$sig: the finding is not reported as found at schedule 1 of 1: $out"
  [[ $out == *$'\n  data_race: ThreadSanitizer: data race'* ]] ||
    fail "$sig: no data_race finding: $out"
  [[ $out == *"schedule saved: $dir/$sig.schedule "* ]] ||
    fail "$sig: the saved schedule is not named: $out"
  [[ $out != *clean* && $err == *"interrupted by SIG$sig while shrinking"* ]] ||
    fail "$sig: the interruption is not said, or the search is called clean: $out $err"
  check_replay "$sig"
  [[ $failures == "$before" ]] && echo "ok: SIG$sig while shrinking"
done

# SIGKILL cannot be answered: the schedule file was written before the shrink.
before=$failures
stop_while_shrinking KILL
[[ $rc == 137 ]] || fail "KILL: exit $rc, want 137"
check_replay KILL
[[ $failures == "$before" ]] && echo "ok: SIGKILL while shrinking"

# explore --tests: the test `hold` is found at its first schedule and its
# shrink waits; SIGTERM then prints the test before it, the finding of
# `hold` as found, and never runs `later`; the status is the finding's.
before=$failures
rm -f "$dir/marker" "$dir/marker.rerun"
XDG_STATE_HOME=$dir/state "$racelab" explore --tests --budget 1 \
  --hang-seconds 3600 -- "$program" tests "$dir/marker" \
  >"$dir/tests.out" 2>"$dir/tests.err" &
pid=$!
while [[ ! -e $dir/marker.rerun ]] && kill -0 "$pid" 2>/dev/null; do
  sleep 0.1
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
out=$(cat "$dir/tests.out")
err=$(cat "$dir/tests.err")
[[ $rc == 1 ]] || fail "tests: exit $rc, want 1 (the finding's): $out $err"
[[ $err == *"racelab explore --tests: hold: found at schedule 1 ("*"data_race: ThreadSanitizer: data race"* ]] ||
  fail "tests: the finding was not printed when it was found: $err"
[[ $out == *$'\nclean: '* && $out == *$'\nhold:\n'*"found at schedule 1 of 1 ("*", shrinking interrupted after "* ]] ||
  fail "tests: clean and hold (as found) are not both reported: $out"
[[ $out == *$'\n  data_race: ThreadSanitizer: data race'* ]] ||
  fail "tests: no data_race finding: $out"
[[ $out != *later* ]] || fail "tests: a test after the signal ran: $out"
[[ $err == *"interrupted by SIGTERM after 2 of 3 tests, 1 with findings (reported as found)"* ]] ||
  fail "tests: the interruption is not said: $err"
saved=$(sed -n 's/^schedule saved: \([^ ]*\) .*/\1/p' <<<"$out")
if [[ -n $saved && -s $saved ]]; then
  rm -f "$dir/marker" "$dir/marker.rerun"
  replayed=$("$racelab" replay "$saved" 2>&1)
  replay_rc=$?
  [[ $replay_rc == 1 && $replayed == *"data_race: ThreadSanitizer: data race"* ]] ||
    fail "tests: the saved schedule replays with exit $replay_rc: $replayed"
else
  fail "tests: no saved schedule named: $out"
fi
[[ $failures == "$before" ]] && echo "ok: SIGTERM while a test's finding shrinks"

exit $((failures > 0))
