#!/usr/bin/env bash
# The fork server of `racelab explore`: what a program writes before main
# begins every schedule's output, as it does in a fresh process; a program
# that cannot be copied before main (a thread, a descriptor or a child
# process of its own there) runs each schedule in a fresh process, said
# once, and --fork-server on refuses it with one line (exit 2); a SIGCHLD
# ignored before main costs no copy's status; the verdicts are the same
# either way.
#   fork_server_test.sh <racelab> <fork_server_program>
set -u
racelab=$1 program=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME=$dir/state
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The constructor's lines, in a copy's output as in a fresh process's.
for mode in on off; do
  out=$(FORK_SERVER_BEFORE=print "$racelab" explore --fork-server $mode --budget 3 \
        -- "$program" crash 2>&1); rc=$?
  [[ $rc == 1 && $out == *"found at schedule 1 of 1"* ]] ||
    fail "print, --fork-server $mode: exit $rc, want 1 at schedule 1: $out"
  for line in "a constructor's stdout line" "a constructor's stderr line" \
              "main's line: counter 2"; do
    [[ $(grep -c "^$line" <<<"$out") == 1 ]] ||
      fail "print, --fork-server $mode: '$line' not once in the finding: $out"
  done
  [[ $out != *"no fork server"* ]] || fail "print, --fork-server $mode: a note: $out"
done
echo "ok: a constructor's output"

# Programs that cannot be copied before main.
while read -r before why; do
  out=$(FORK_SERVER_BEFORE=$before "$racelab" explore --budget 3 -- "$program" clean 2>&1); rc=$?
  [[ $rc == 0 && $out == *"clean over 3 schedules"* ]] ||
    fail "$before: exit $rc, want 0 and clean: $out"
  [[ $(grep -c "^note: every schedule started a fresh process (no fork server: " <<<"$out") == 1 &&
     $(grep -cF "$why" <<<"$out") == 1 ]] ||
    fail "$before: the fallback is not said once with its reason ($why): $out"
  out=$(FORK_SERVER_BEFORE=$before "$racelab" explore --fork-server on --budget 3 \
        -- "$program" clean 2>&1); rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"--fork-server on: "*"$why"* ]] ||
    fail "$before, --fork-server on: exit $rc, want 2 and one line naming '$why': $out"
  out=$(FORK_SERVER_BEFORE=$before "$racelab" explore --fork-server off --budget 3 \
        -- "$program" clean 2>&1); rc=$?
  [[ $rc == 0 && $out != *"no fork server"* ]] ||
    fail "$before, --fork-server off: exit $rc, want 0 and no note: $out"
  echo "ok: $before before main"
done <<'LIST'
thread threads run before main (a static constructor started them)
open (/dev/null) was opened before main
child was started before main (a child of the process, not of a copy)
LIST

# A program that ignores SIGCHLD before main: the server still learns how
# each copy ended (a crash is a crash), and the copy ignores it as the
# program asked.
for mode in on off; do
  out=$(FORK_SERVER_BEFORE=ignore_chld "$racelab" explore --fork-server $mode --budget 3 \
        -- "$program" crash 2>&1); rc=$?
  [[ $rc == 1 && $out == *"found at schedule 1 of 1"* && $out == *"killed by SIGABRT"* ]] ||
    fail "ignore_chld, --fork-server $mode: exit $rc, want the abort found: $out"
  out=$(FORK_SERVER_BEFORE=ignore_chld "$racelab" explore --fork-server $mode --budget 3 \
        -- "$program" clean 2>&1); rc=$?
  [[ $rc == 0 && $out == *"clean over 3 schedules"* ]] ||
    fail "ignore_chld clean, --fork-server $mode: exit $rc: $out"
done
echo "ok: SIGCHLD ignored before main"

out=$("$racelab" explore --fork-server sometimes -- "$program" clean 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 ]] ||
  fail "--fork-server sometimes: exit $rc, want 2 and one line: $out"

[[ $failures == 0 ]] || exit 1
echo "fork server: all checks passed"
