#!/usr/bin/env bash
# Correct programs that are long (2 x 20,000 locked increments), wait on
# std::future in a thread pool, or share a lock with a thread a static
# constructor started before main, or wait for a lock such a thread holds:
# `racelab explore` finishes each clean (exit 0), with no livelock, deadlock
# or hang finding.
#   long_run_test.sh <racelab> <long_run_program>
set -u
racelab=$1 program=$2
failures=0
for mode in increments future_pool static_pool outside_holder; do
  for strategy in pct random; do
    out=$("$racelab" explore --strategy "$strategy" --budget 3 --seed 1 \
          -- "$program" "$mode" 2>&1); rc=$?
    if [[ $rc == 0 ]]; then
      echo "ok: $mode ($strategy)"
    else
      echo "FAIL: $mode ($strategy): exit $rc, want 0: $out"
      failures=$((failures + 1))
    fi
  done
done
exit $((failures > 0))
