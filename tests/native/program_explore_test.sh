#!/usr/bin/env bash
# `racelab explore -- ./program`: every buggy twin of programs.h, run as a
# whole program, is found with its finding (exit 1) and its saved schedule
# replays to the same finding (`racelab replay`, exit 1); every fixed twin is
# clean (exit 0); a program without racelab::runtime is an input error
# (exit 2).
#   program_explore_test.sh <racelab> <racelab_native_program> <plain program>
set -u
racelab=$1 program=$2 plain=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

while read -r name kind; do
  out=$("$racelab" explore --strategy random --budget 200 --save-schedule "$dir/$name.schedule" \
        -- "$program" "$name" buggy 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name buggy: exit $rc, want 1: $out"
  grep -q "^  $kind: " <<<"$out" || fail "$name buggy: no $kind finding: $out"
  out=$("$racelab" replay "$dir/$name.schedule" 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name replay: exit $rc, want 1: $out"
  grep -q "^  $kind: " <<<"$out" || fail "$name replay: no $kind finding: $out"
  out=$("$racelab" explore --budget 8 -- "$program" "$name" fixed 2>&1); rc=$?
  [[ $rc == 0 ]] || fail "$name fixed: exit $rc, want 0: $out"
  echo "ok: $name"
done <<'LIST'
lost_update crash
lock_order deadlock
relaxed_publication data_race
lost_wakeup deadlock
upgrade deadlock
spin_wait data_race
thread_identity data_race
bounded_queue crash
unlocked_notify deadlock
LIST

out=$("$racelab" explore --budget 2 -- "$plain" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 ]] || fail "plain program: exit $rc, want 2: $out"
grep -q "racelab::runtime" <<<"$out" || fail "plain program: message: $out"
out=$("$racelab" explore -- /nonexistent/program 2>&1); rc=$?
[[ $rc == 2 ]] || fail "missing program: exit $rc, want 2: $out"

exit $((failures > 0))
