#!/usr/bin/env bash
# `racelab explore -- ./program`: every buggy twin of programs.h, run as a
# whole program, is found with its finding (exit 1) and its saved schedule
# replays to the same finding (`racelab replay`, exit 1); every fixed twin is
# clean (exit 0); a program without racelab::runtime is an input error
# (exit 2). Both ways of starting a schedule's process agree: copies of one
# process stopped before main (the fork server, the default) and a fresh
# process each (--fork-server off) find the same first failing schedule and
# save the very same schedule, and call every fixed twin clean.
#   program_explore_test.sh <racelab> <racelab_native_program> <plain program>
set -u
racelab=$1 program=$2 plain=$3
check=$(dirname "$0")/check_explore_reports.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

while read -r name kind; do
  out=$("$racelab" explore --strategy random --budget 200 --save-schedule "$dir/$name.schedule" \
        -- "$program" "$name" buggy 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name buggy: exit $rc, want 1: $out"
  grep -q "^  $kind: " <<<"$out" || fail "$name buggy: no $kind finding: $out"
  [[ $out != *"no fork server"* ]] || fail "$name buggy: not forked: $out"
  fresh=$("$racelab" explore --fork-server off --strategy random --budget 200 \
          --save-schedule "$dir/$name.fresh.schedule" -- "$program" "$name" buggy 2>&1); rc=$?
  [[ $rc == 1 && $(head -1 <<<"$fresh") == $(head -1 <<<"$out") ]] ||
    fail "$name buggy: fresh processes found '$(head -1 <<<"$fresh")' (exit $rc), the fork server '$(head -1 <<<"$out")'"
  cmp -s "$dir/$name.schedule" "$dir/$name.fresh.schedule" ||
    fail "$name buggy: the fork server and fresh processes saved different schedules"
  out=$("$racelab" replay "$dir/$name.schedule" 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name replay: exit $rc, want 1: $out"
  grep -q "^  $kind: " <<<"$out" || fail "$name replay: no $kind finding: $out"
  out=$("$racelab" explore --budget 8 -- "$program" "$name" fixed 2>&1); rc=$?
  [[ $rc == 0 ]] || fail "$name fixed: exit $rc, want 0: $out"
  out=$("$racelab" explore --fork-server off --budget 8 -- "$program" "$name" fixed 2>&1); rc=$?
  [[ $rc == 0 ]] || fail "$name fixed, fresh processes: exit $rc, want 0: $out"
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

# The engine's search: dfs verifies a fixed twin whose schedules fairness
# never cut, and finds the buggy one; the failing trace names the program's
# own lines; --out writes the report set, in explore's words.
out=$("$racelab" explore --strategy dfs --budget 500 -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 0 && $out == *": verified: every schedule that matters"* ]] ||
  fail "lost_update fixed under dfs: exit $rc, want 0 and verified: $out"
out=$("$racelab" explore --strategy dfs --budget 500 --out "$dir/reports" \
      --save-schedule "$dir/dfs.schedule" -- "$program" lost_update buggy 2>&1); rc=$?
[[ $rc == 1 ]] || fail "lost_update buggy under dfs: exit $rc, want 1: $out"
grep -q "\[programs.h:[0-9]*\]" <<<"$out" ||
  fail "lost_update buggy under dfs: no trace row names programs.h: $out"
for report in results.json summary.md junit.xml results.sarif index.html; do
  [[ -s $dir/reports/$report ]] || fail "explore --out: no $report in $dir/reports"
done
# The reports read as explore: titled by the program, the case found at its
# schedule with its shrunk trace first and the search's wall time, named by
# the program's base name and arguments (its full path apart).
"$check" "$dir/reports" explore "$(basename "$program") lost_update buggy" 1 0 0 \
  "$program" lost_update buggy || fail "explore --out: the reports do not read as explore"
out=$("$racelab" explore --strategy dfs --budget 500 --out "$dir/verified" -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 0 ]] || fail "lost_update fixed under dfs, --out: exit $rc, want 0: $out"
"$check" "$dir/verified" explore "$(basename "$program") lost_update fixed" 0 0 1 \
  "$program" lost_update fixed || fail "explore --out of a verified program: the reports do not read as explore"
out=$("$racelab" replay "$dir/dfs.schedule" 2>&1); rc=$?
[[ $rc == 1 ]] || fail "dfs schedule replay: exit $rc, want 1: $out"
mkdir -p "$dir/theirs" && echo keep >"$dir/theirs/notes.txt"
out=$("$racelab" explore --budget 2 --out "$dir/theirs" -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 && $(cat "$dir/theirs/notes.txt") == keep ]] ||
  fail "explore --out into a folder of someone else's: exit $rc, want 2: $out"

out=$("$racelab" explore --budget 2 -- "$plain" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 ]] || fail "plain program: exit $rc, want 2: $out"
grep -q "racelab::runtime" <<<"$out" || fail "plain program: message: $out"
out=$("$racelab" explore -- /nonexistent/program 2>&1); rc=$?
[[ $rc == 2 ]] || fail "missing program: exit $rc, want 2: $out"

exit $((failures > 0))
