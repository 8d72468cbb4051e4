#!/usr/bin/env bash
# The differential run: every conformance program explored five ways, which
# must all give the same verdict and the same first failing schedule:
#   auto    the default (copies of one process, the fork server, where the
#           program can be copied before main; fresh processes otherwise)
#   off     --fork-server off: a fresh process per schedule
#   on      --fork-server on: copies only; a program that cannot be copied
#           is refused (exit 2, one line), which agrees only when auto said
#           it fell back ("no fork server: ...")
#   jobs2   --jobs 2: two schedules at once
#   shards  --shard 1/3, 2/3, 3/3 with --out, joined by `racelab merge`
# Each way runs `explore --strategy pct --seed 1 --budget B` (B: the
# program's EXPLORE-BUDGET line, else 10). Prints one table row per program
# (verdict and first failing schedule per way) and exits 1 on any
# disagreement.
#
#   run_differential.sh <racelab> <bindir> [name...]
#
# Environment: RACELAB_DIFFERENTIAL_JOBS (programs at once, default 2).
set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 <racelab> <bindir> [name...]" >&2
  exit 2
fi
racelab=$(realpath "$1") bindir=$(realpath "$2")
shift 2
srcdir=$(cd "$(dirname "$0")" && pwd)
jobs=${RACELAB_DIFFERENTIAL_JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state

# shellcheck source=each_program.sh
source "$srcdir/each_program.sh"
choose_programs "$srcdir" "$@"

# "found@N", "clean", "verified", "refused" or "exit N" of one explore
# output and exit status.
verdict_of() {
  local out=$1 rc=$2 at
  case $rc in
    0) grep -q ": verified: " "$out" && echo verified || echo clean ;;
    1)
      at=$(sed -n 's/.*: found at schedule \([0-9]*\) .*/\1/p' "$out" | tail -n 1)
      echo "found@${at:-?}"
      ;;
    2) grep -q -- "--fork-server on: the program cannot be copied" "$out" && echo refused || echo "exit 2" ;;
    *) echo "exit $rc" ;;
  esac
}

run_one() {
  local name=$1 program=$bindir/conformance_$name budget
  local dir=$work/$name row=$work/$name.row
  mkdir -p "$dir"
  budget=$(sed -n 's|^// EXPLORE-BUDGET: *||p' "$srcdir/$name.cc" 2>/dev/null | head -n 1)
  [[ $budget =~ ^[0-9]+$ ]] || budget=10
  local common=(explore --strategy pct --seed 1 --budget "$budget" --hang-seconds 20)
  local way rc
  declare -A verdict
  for way in auto off on jobs2; do
    local extra=()
    case $way in
      off | on) extra=(--fork-server "$way") ;;
      jobs2) extra=(--jobs 2) ;;
    esac
    env -u TSAN_OPTIONS timeout -k 5 600 "$racelab" "${common[@]}" "${extra[@]}" \
      -- "$program" >"$dir/$way.out" 2>&1 </dev/null
    rc=$?
    verdict[$way]=$(verdict_of "$dir/$way.out" "$rc")
  done
  local k shard_rcs=()
  for k in 1 2 3; do
    env -u TSAN_OPTIONS timeout -k 5 600 "$racelab" "${common[@]}" --shard "$k/3" \
      --out "$dir/shard$k" -- "$program" >"$dir/shard$k.out" 2>&1 </dev/null
    shard_rcs+=($?)
  done
  "$racelab" merge "$dir/shard1" "$dir/shard2" "$dir/shard3" --out "$dir/merged" \
    >"$dir/merge.out" 2>&1
  rc=$?
  if [[ $rc == 0 || $rc == 1 ]]; then
    verdict[shards]=$(python3 - "$dir/merged/results.json" <<'PY'
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
if case.get("observed", "clean") == "clean":
    print("verified" if case.get("verified") else "clean")
else:
    print("found@%d" % (case["first_failing_schedule"] + 1))
PY
)
  else
    verdict[shards]="merge exit $rc (shards ${shard_rcs[*]})"
  fi
  local problems=()
  local reference=${verdict[auto]}
  for way in off jobs2 shards; do
    [[ ${verdict[$way]} == "$reference" ]] || problems+=("$way")
  done
  if [[ ${verdict[on]} == refused ]]; then
    grep -q "no fork server: " "$dir/auto.out" || problems+=("on (refused, but auto copied)")
  elif [[ ${verdict[on]} != "$reference" ]]; then
    problems+=("on")
  fi
  local mark=ok
  if [[ ${#problems[@]} -gt 0 ]]; then
    mark="FAIL: ${problems[*]}"
    {
      echo "-- $name"
      for way in auto off on jobs2; do
        echo "-- $way (last 15 lines)"
        tail -n 15 "$dir/$way.out"
      done
      echo "-- merge"
      cat "$dir/merge.out"
    } >"$work/$name.failure"
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "${verdict[auto]}" \
    "${verdict[off]}" "${verdict[on]}" "${verdict[jobs2]}" "${verdict[shards]}" \
    "$mark" >"$row"
}

start=$(date +%s)
run_each "$jobs" run_one

echo "| program | auto | off | on | jobs 2 | 3 shards merged | agree |"
echo "|---|---|---|---|---|---|---|"
failures=0
for name in "${names[@]}"; do
  if [[ -f $work/$name.row ]]; then
    cat "$work/$name.row"
    grep -q "| FAIL" "$work/$name.row" && failures=$((failures + 1))
  else
    echo "| $name | (no result) | | | | | FAIL |"
    failures=$((failures + 1))
  fi
done
for name in "${names[@]}"; do
  [[ -f $work/$name.failure ]] && cat "$work/$name.failure"
done
echo "${#names[@]} programs, $failures disagreeing, $(($(date +%s) - start)) s"
[[ $failures -eq 0 ]]
