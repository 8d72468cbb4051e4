#!/usr/bin/env bash
# One search split over workers and machines: `racelab explore --jobs N`
# and `--shard K/N` + `racelab merge` meet the same first failing schedule as
# the search on one worker, save the very same schedule and give the same
# verdict; a fixed twin stays clean over the same schedules. dfs with
# --jobs splits its tree at the first branching decision: the same for any
# number of jobs from 2 on, and the verdicts of one job; dfs refuses --shard
# (exit 2, one line). merge refuses shards of other searches (program,
# arguments, options), a schedule not the shard's own, and an --out that is
# one of the shards.
#   split_search_test.sh <racelab> <racelab_native_program> <racelab_unit_tests_program>
set -u
racelab=$1 program=$2 unit_tests=$3
check=$(dirname "$0")/check_explore_reports.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
first_line() { head -1 <<<"$1"; }
failing() { python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; print(c.get('first_failing_schedule', -1), c['observed'])" "$1"; }

# pct (seed 6) meets the check-then-act of the GoogleTest binary's
# Slot.CheckThenActTakesTwice at schedule 21, random meets unlocked_notify at
# schedule 6: the workers run schedules past the first failing one before
# the search reaches it. Each line: a name, the strategy and seed, the
# command.
while read -r name strategy seed command <&3; do
  one=$("$racelab" explore --strategy $strategy --seed $seed --budget 300 --save-schedule "$dir/$name.$strategy.1" \
        --out "$dir/$name.$strategy.out" -- $command 2>&1); rc=$?
  [[ $rc == 1 ]] || fail "$name $strategy, one job: exit $rc, want 1: $one"
  for jobs in 2 3; do
    many=$("$racelab" explore --strategy $strategy --seed $seed --budget 300 --jobs $jobs \
           --save-schedule "$dir/$name.$strategy.$jobs" -- $command 2>&1); rc=$?
    [[ $rc == 1 && $(first_line "$many") == $(first_line "$one") ]] ||
      fail "$name $strategy: --jobs $jobs found '$(first_line "$many")' (exit $rc), one job '$(first_line "$one")'"
    cmp -s "$dir/$name.$strategy.1" "$dir/$name.$strategy.$jobs" ||
      fail "$name $strategy: --jobs $jobs saved another schedule than one job"
  done
  shards=()
  for k in 1 2 3; do
    out=$("$racelab" explore --strategy $strategy --seed $seed --budget 300 --shard $k/3 --jobs 2 \
          --out "$dir/$name.$strategy.shard$k" -- $command 2>&1); rc=$?
    [[ $rc == 0 || $rc == 1 ]] || fail "$name $strategy shard $k/3: exit $rc: $out"
    [[ $rc == 0 || $out == *", shard $k/3: its "* ]] ||
      fail "$name $strategy shard $k/3: the finding does not name the shard: $out"
    shards+=("$dir/$name.$strategy.shard$k")
  done
  "$racelab" merge --out "$dir/$name.$strategy.merged" "${shards[@]}" >/dev/null 2>&1
  whole=$(failing "$dir/$name.$strategy.out/results.json")
  merged=$(failing "$dir/$name.$strategy.merged/results.json")
  [[ -n $whole && $merged == "$whole" ]] ||
    fail "$name $strategy: merged shards say '$merged', one machine '$whole'"
  read -r path args <<<"$command"
  "$check" "$dir/$name.$strategy.merged" explore "$(basename "$path") $args" 1 0 0 $command ||
    fail "$name $strategy: the merged shards' reports do not read as explore"
  echo "ok: $name $strategy ($(first_line "$one" | grep -o 'schedule [0-9]*'))"
done 3<<LIST
check_then_act pct 6 $unit_tests --gtest_filter=Slot.CheckThenActTakesTwice
unlocked_notify random 1 $program unlocked_notify buggy
LIST

# A fixed twin: clean over the same schedules, split or not.
for args in "--jobs 1" "--jobs 2" "--jobs 2 --shard 2/2 --out $dir/fixed.shard2"; do
  out=$("$racelab" explore --strategy pct --budget 40 $args -- "$program" lost_update fixed 2>&1); rc=$?
  [[ $rc == 0 && $out == *"clean over"* ]] || fail "lost_update fixed, $args: exit $rc: $out"
done
"$racelab" explore --strategy pct --budget 40 --shard 1/2 --out "$dir/fixed.shard1" \
  -- "$program" lost_update fixed >/dev/null 2>&1
"$racelab" merge --out "$dir/fixed.merged" "$dir/fixed.shard1" "$dir/fixed.shard2" >/dev/null 2>&1; rc=$?
[[ $rc == 0 ]] || fail "merging the fixed twin's shards: exit $rc"
schedules=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cases'][0]['schedules'])" \
            "$dir/fixed.merged/results.json" 2>&1)
[[ $schedules == 40 ]] || fail "the fixed twin's merged shards tried $schedules schedules, want 40"
"$check" "$dir/fixed.merged" explore "$(basename "$program") lost_update fixed" 0 1 0 \
  "$program" lost_update fixed || fail "the fixed twin's merged reports do not read as explore"

# Shards of one split search are not a gate's shards: a merge of one shard
# with a shard of another search is refused.
"$racelab" explore --strategy pct --budget 41 --shard 2/2 --out "$dir/other.shard2" \
  -- "$program" lost_update fixed >/dev/null 2>&1
out=$("$racelab" merge --out "$dir/bad.merged" "$dir/fixed.shard1" "$dir/other.shard2" 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 ]] || fail "merging shards of two searches: exit $rc, want 2 and one line: $out"
[[ ! -e $dir/bad.merged ]] || fail "a refused merge left its --out folder"

# A merge takes only the shards of one search: a shard of another program,
# of the same program with other arguments or options, is refused (exit 2,
# one line naming the folder and what differs); the same program's bytes
# kept elsewhere are the same program.
cp "$program" "$dir/copy_of_program"
while read -r name says command <&3; do
  "$racelab" explore --strategy pct --budget 40 --shard 2/2 --out "$dir/$name.shard2" $command >/dev/null 2>&1
  out=$("$racelab" merge --out "$dir/$name.merged" "$dir/fixed.shard1" "$dir/$name.shard2" 2>&1); rc=$?
  if [[ $says == same ]]; then
    [[ $rc == 0 ]] || fail "merging the fixed twin's shard 1 with $name: exit $rc, want 0: $out"
    continue
  fi
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == "racelab: merge: $dir/$name.shard2: "*"$says"* ]] ||
    fail "merging the fixed twin's shard 1 with $name: exit $rc, want 2 and one line naming $says: $out"
  [[ ! -e $dir/$name.merged ]] || fail "a refused merge ($name) left its --out folder"
done 3<<LIST
copied same -- $dir/copy_of_program lost_update fixed
other_arguments arguments -- $program lost_update buggy
other_program program -- $unit_tests --gtest_filter=Slot.CheckThenActTakesTwice
no_shrink shrink --no-shrink -- $program lost_update fixed
memory_model memory_model --memory-model -- $program lost_update fixed
LIST

# A shard claiming a schedule that is not its own (shard K/N runs the
# schedules i with i % N == K-1), or more schedules than its share, is
# refused.
cp -r "$dir/check_then_act.pct.shard1" "$dir/foreign.shard1"
python3 - "$dir/check_then_act.pct.shard1/results.json" "$dir/foreign.shard1/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"][0]["first_failing_schedule"] = 1  # shard 1/3's are 0, 3, 6...
json.dump(doc, open(sys.argv[2], "w"))
PY
out=$("$racelab" merge --out "$dir/foreign.merged" "$dir/foreign.shard1" "$dir/check_then_act.pct.shard2" \
      "$dir/check_then_act.pct.shard3" 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"first failing schedule 1 is not one of shard 1/3's"* ]] ||
  fail "a shard claiming another's schedule: exit $rc, want 2 and one line: $out"
python3 - "$dir/check_then_act.pct.shard1/results.json" "$dir/foreign.shard1/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"][0]["schedules"] = 101  # shard 1/3 of 300 runs 100 at most
json.dump(doc, open(sys.argv[2], "w"))
PY
out=$("$racelab" merge --out "$dir/foreign.merged" "$dir/foreign.shard1" "$dir/check_then_act.pct.shard2" \
      "$dir/check_then_act.pct.shard3" 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"101 schedules, more than shard 1/3's 100"* ]] ||
  fail "a shard claiming more schedules than its share: exit $rc, want 2 and one line: $out"

# --out naming one of the shards (or a path to it) is refused before
# anything is read or written; the shard stays as it was.
cp "$dir/fixed.shard1/results.json" "$dir/fixed.shard1.results.json"
ln -s "$dir/fixed.shard1" "$dir/fixed.shard1.link"
for out_dir in "$dir/fixed.shard1" "$dir/fixed.shard1.link" "$dir/fixed.shard1/inner"; do
  out=$("$racelab" merge --out "$out_dir" "$dir/fixed.shard1" "$dir/fixed.shard2" 2>&1); rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == "racelab: merge: --out '$out_dir' "* ]] ||
    fail "merge --out $out_dir (a shard): exit $rc, want 2 and one line: $out"
  cmp -s "$dir/fixed.shard1/results.json" "$dir/fixed.shard1.results.json" ||
    fail "merge --out $out_dir (a shard) changed the shard"
  [[ ! -e $dir/fixed.shard1/inner ]] || fail "merge --out $out_dir created a folder inside the shard"
done

# dfs with --jobs: split at the tree's first branching decision, the same
# for any number of jobs from 2 on (first line, saved schedule, verified and
# its count), with the verdicts of one job.
for name in lost_update lost_wakeup; do
  lines=()
  for jobs in 1 2 3; do
    out=$("$racelab" explore --strategy dfs --budget 500 --jobs $jobs \
          --save-schedule "$dir/dfs.$name.$jobs" -- "$program" "$name" buggy 2>&1); rc=$?
    [[ $rc == 1 ]] || fail "$name buggy, dfs --jobs $jobs: exit $rc, want 1: $out"
    # The finding itself (the lines before it say where it was found and
    # saved as found, whose file differs per run).
    lines+=("$(grep -m1 "^  [a-z_]*: " <<<"$out")")
    [[ $jobs == 1 ]] || first[$jobs]=$(first_line "$out")
  done
  [[ ${first[2]} == "${first[3]}" ]] || fail "$name buggy, dfs: --jobs 2 '${first[2]}', --jobs 3 '${first[3]}'"
  [[ ${lines[0]} == "${lines[1]}" && ${lines[1]} == "${lines[2]}" ]] ||
    fail "$name buggy, dfs: the findings differ between 1, 2 and 3 jobs: ${lines[*]}"
  cmp -s "$dir/dfs.$name.2" "$dir/dfs.$name.3" || fail "$name buggy, dfs: --jobs 2 and 3 saved other schedules"
  two=$("$racelab" explore --strategy dfs --budget 2000 --jobs 2 -- "$program" "$name" fixed 2>&1)
  three=$("$racelab" explore --strategy dfs --budget 2000 --jobs 3 -- "$program" "$name" fixed 2>&1)
  [[ $two == *": verified: every schedule that matters"* && $(first_line "$two") == $(first_line "$three") ]] ||
    fail "$name fixed, dfs: --jobs 2 '$(first_line "$two")', --jobs 3 '$(first_line "$three")'"
  echo "ok: $name dfs ($(first_line "$two" | grep -o '[0-9]* in all'))"
done

# dfs refuses --shard; plain-dfs says --jobs does not split it.
out=$("$racelab" explore --strategy dfs --shard 1/2 --out "$dir/dfs" -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"--shard"* ]] || fail "dfs --shard: exit $rc, want 2 and one line: $out"
out=$("$racelab" explore --strategy plain-dfs --jobs 2 --budget 500 -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 0 && $out == *"note: --jobs 2: a plain-dfs search runs one schedule at a time"* ]] ||
  fail "plain-dfs --jobs 2: exit $rc: $out"
out=$("$racelab" explore --strategy pct --shard 1/2 -- "$program" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 ]] || fail "--shard without --out: exit $rc, want 2 and one line: $out"

if ((failures > 0)); then
  echo "$failures failures"
  exit 1
fi
echo "all split searches agree"
