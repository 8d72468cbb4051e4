#!/usr/bin/env bash
# The progress line (docs/cli.md, "Progress on a terminal"): on a terminal
# (a pseudo-terminal made by util-linux's script), explore and explore
# --tests write their progress in place ("\r", the text, "erase the rest of
# the line") and erase it before their result; with stderr not a terminal
# they write no such line. The verdicts and exit statuses are the same.
#   progress_line_test.sh <racelab> <racelab_native_program> <unit_tests_program>
set -u
if [[ $# -ne 3 ]]; then
  echo "usage: $0 RACELAB NATIVE_PROGRAM UNIT_TESTS" >&2
  exit 2
fi
racelab=$1 program=$2 unit_tests=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME=$dir/state
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Runs "$@" with stdin, stdout and stderr on a pseudo-terminal; the
# terminal's output goes to $dir/tty.out, the command's status to rc.
on_terminal() {
  local quoted
  printf -v quoted '%q ' "$@"
  # A terminal wide enough for the whole line (it is cut to the width).
  script -qefc "stty cols 200; $quoted" "$dir/tty.out" >/dev/null 2>&1 </dev/null
  rc=$?
}
has() { grep -qaF -- "$1" "$2"; }

echo "== explore on a terminal"
on_terminal "$racelab" explore --budget 40 -- "$program" lost_update fixed
[[ $rc -eq 0 ]] || fail "explore on a terminal: exit $rc, not 0"
has $'\rracelab explore: racelab_native_program lost_update fixed: ' "$dir/tty.out" ||
  fail "explore on a terminal: no progress line"
has " of 40 schedules (pct), " "$dir/tty.out" ||
  fail "explore on a terminal: the line does not count the schedules"
has $'\r\e[K' "$dir/tty.out" || fail "explore on a terminal: the line is not erased"
has "clean over 40 schedules" "$dir/tty.out" ||
  fail "explore on a terminal: no result line"

echo "== a finding, on a terminal"
on_terminal "$racelab" explore --budget 40 -- "$program" lost_update buggy
[[ $rc -eq 1 ]] || fail "a finding on a terminal: exit $rc, not 1"
has "found at schedule" "$dir/tty.out" || fail "a finding on a terminal: not reported"

echo "== explore --tests on a terminal"
on_terminal "$racelab" explore --tests --budget 5 -- "$unit_tests" \
  --gtest_filter='Counter.LockedIncrementsAreClean:Slot.ExchangeTakesOnce'
[[ $rc -eq 0 ]] || fail "explore --tests on a terminal: exit $rc, not 0"
has $'\rracelab explore --tests: ' "$dir/tty.out" ||
  fail "explore --tests on a terminal: no progress line"
has "Counter.LockedIncrementsAreClean: clean" "$dir/tty.out" ||
  fail "explore --tests on a terminal: the test's line is missing"

echo "== not a terminal"
"$racelab" explore --budget 40 -- "$program" lost_update fixed >"$dir/out" 2>"$dir/err"
rc=$?
[[ $rc -eq 0 ]] || fail "explore to files: exit $rc, not 0"
if grep -qaF $'\r' "$dir/out" "$dir/err"; then
  fail "explore to files wrote a progress line"
fi

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
