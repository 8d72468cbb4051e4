#!/usr/bin/env bash
# ThreadSanitizer's detectors other than data races stay on under
# `racelab explore`: for each program of tsan_detectors_program.cc, plain TSan
# prints its report, and `racelab explore --budget 20` finds the same report
# (exit 1), within a bounded time.
#   tsan_detectors_test.sh <racelab> <racelab_tsan_detectors_program>
set -u
racelab=$1 program=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

while IFS='|' read -r name title; do
  out=$(timeout 60 "$program" "$name" 2>&1); rc=$?
  [[ $rc != 124 ]] || fail "$name plain: hangs"
  grep -q "WARNING: ThreadSanitizer: $title" <<<"$out" ||
    fail "$name plain: no '$title' report: $out"
  out=$(timeout 300 "$racelab" explore --budget 20 -- "$program" "$name" 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name explore: exit $rc, want 1: $out"
  grep -q "ThreadSanitizer: $title" <<<"$out" ||
    fail "$name explore: no '$title' finding: $out"
  echo "ok: $name"
done <<'LIST'
lock_order_inversion|lock-order-inversion
destroyed_mutex|use of an invalid mutex
thread_leak|thread leak
LIST

exit $((failures > 0))
