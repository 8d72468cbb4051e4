#!/usr/bin/env bash
# The memory-model mode on a whole program (`racelab explore --memory-model`):
# store buffering's weak outcome is found by every strategy, saved with the
# mode, replayed to the same failure with the stale read in its trace, found
# alike by one job and two; without the mode dfs verifies it unreachable;
# a schedule file whose memory_model is not `on` is refused (exit 2, one
# line); a reader that aborts right after its stale read shows that read in
# its column of the trace, explored and replayed.
#   litmus_program_test.sh <racelab> <racelab_litmus_program> <racelab_stale_read_abort_program>
set -u
racelab=$1 program=$2 stale_abort=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
first_line() { head -1 <<<"$1"; }

weak=(SB relaxed 0,0)
for strategy in dfs plain-dfs pct random; do
  bound=()
  [[ $strategy == dfs || $strategy == plain-dfs ]] && bound=(--preemptions 2)
  out=$("$racelab" explore --memory-model --strategy $strategy "${bound[@]}" --budget 500 \
        --save-schedule "$dir/$strategy.schedule" -- "$program" "${weak[@]}" 2>&1); rc=$?
  [[ $rc == 1 && $(first_line "$out") == *"found at schedule"* ]] ||
    fail "$strategy --memory-model: exit $rc, want 1 and a finding: $(first_line "$out")"
  grep -qx "memory_model on" "$dir/$strategy.schedule" ||
    fail "$strategy: the saved schedule does not record the mode"
  replayed=$("$racelab" replay "$dir/$strategy.schedule" 2>&1); rc=$?
  [[ $rc == 1 && $replayed == *"reached outcome 0,0"* && $replayed == *"newer store not seen"* ]] ||
    fail "$strategy: replay exit $rc, want the weak outcome and the stale read in the trace: $replayed"
  echo "ok: $strategy ($(first_line "$out" | grep -o 'schedule [0-9]*'))"
done

one=$("$racelab" explore --memory-model --strategy dfs --no-preemption-bound --budget 500 \
      --save-schedule "$dir/one" -- "$program" "${weak[@]}" 2>&1)
two=$("$racelab" explore --memory-model --strategy dfs --no-preemption-bound --budget 500 --jobs 2 \
      --save-schedule "$dir/two" -- "$program" "${weak[@]}" 2>&1)
[[ $(first_line "$one") == *"found at"* ]] || fail "dfs, one job: $(first_line "$one")"
[[ $(first_line "$two") == *"found at"* ]] || fail "dfs, two jobs: $(first_line "$two")"

out=$("$racelab" explore --strategy dfs --no-preemption-bound --budget 500 -- "$program" "${weak[@]}" 2>&1); rc=$?
[[ $rc == 0 && $(first_line "$out") == *"verified"* ]] ||
  fail "without the mode dfs must verify SB's weak outcome unreachable: exit $rc: $(first_line "$out")"

sed 's/^memory_model on$/memory_model yes/' "$dir/dfs.schedule" >"$dir/bad.schedule"
out=$("$racelab" replay "$dir/bad.schedule" 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"memory_model"* ]] ||
  fail "a bad memory_model value: exit $rc, want 2 and one line: $out"

# The reader's stale read is the last thing it does: its row must reach the
# trace before the abort.
for strategy in dfs pct; do
  out=$("$racelab" explore --memory-model --strategy $strategy --budget 500 \
        --save-schedule "$dir/abort-$strategy.schedule" -- "$stale_abort" 2>&1); rc=$?
  [[ $rc == 1 && $out == *"killed by SIGABRT"* ]] ||
    fail "stale-read abort, $strategy: exit $rc, want 1 and the abort: $(first_line "$out")"
  # (The trace wraps its cells: the row's words sit on lines of their own.)
  [[ $out == *"atomic load reads 0"* && $out == *"newer store not seen"* ]] ||
    fail "stale-read abort, $strategy: the trace lacks the reader's stale read: $out"
  replayed=$("$racelab" replay "$dir/abort-$strategy.schedule" 2>&1)
  [[ $replayed == *"atomic load reads 0"* && $replayed == *"newer store not seen"* ]] ||
    fail "stale-read abort, $strategy: the replay's trace lacks the stale read: $replayed"
  echo "ok: stale-read abort, $strategy"
done

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all passed"
