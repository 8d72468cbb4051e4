#!/usr/bin/env bash
# Short libFuzzer runs for CTest.
#   fuzz_smoke.sh clean TARGET CORPUS   2000 runs over a copy of the seed
#                                       corpus; must exit 0 (no finding)
#   fuzz_smoke.sh finds TARGET [KIND]   from an empty corpus, bounded runs;
#                                       must write a crash-* file, and
#                                       TARGET --replay on it must report a
#                                       finding (exit 1); the crash
#                                       report must print the program
#                                       (and a finding of KIND, e.g.
#                                       data_race, when given)
#   fuzz_smoke.sh scope TARGET CORPUS   runs the corpus once with
#                                       -print_coverage=1: the subject's code
#                                       must be covered, the harness's
#                                       (scheduler, oracles, kit, sync,
#                                       linearizability search) must carry no
#                                       coverage (harness_coverage_ignorelist)
set -uo pipefail
mode=$1 target=$2
work=$(mktemp -d /tmp/racelab-fuzz-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
case $mode in
  clean)
    cp -r "$3"/. "$work/corpus/"
    "$target" -runs=2000 -seed=1 -max_len=256 -timeout=20 \
      -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
    status=$?
    if [[ $status -ne 0 ]]; then
      tail -60 "$work/log"
      echo "fuzz_smoke: $target found something on a fixed subject (exit $status)" >&2
      exit 1
    fi
    grep -E '^(#[0-9]+ *DONE|Done)' "$work/log" | tail -1
    ;;
  finds)
    "$target" -runs=200000 -seed=1 -max_len=256 -timeout=20 \
      -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
    crash=$(ls "$work"/artifacts/crash-* 2>/dev/null | head -1)
    if [[ -z $crash ]]; then
      tail -40 "$work/log"
      echo "fuzz_smoke: $target found no crash in 200000 runs" >&2
      exit 1
    fi
    grep -m1 -E '^racelab fuzz: [0-9]+ finding' -A1 "$work/log"
    kind=${3:-}
    if [[ -n $kind ]] && ! grep -q -E "^  $kind \(" "$work/log"; then
      grep -E '^  [a-z_]+ \(' "$work/log" | head -10
      echo "fuzz_smoke: $target found no $kind" >&2
      exit 1
    fi
    if ! grep -q -E '^  thread 0: [a-z]+\(' "$work/log"; then
      tail -40 "$work/log"
      echo "fuzz_smoke: the crash report of $target does not print the program" >&2
      exit 1
    fi
    # The input ran without a trace and was replayed once with it.
    # One awk, no pipe: under pipefail a `| grep -q` that exits at its first
    # match makes the writer die of SIGPIPE, and the check fail, whenever
    # output is still left to write (which depends on scheduling).
    if ! awk '/^trace:/ { shown = 1; next } shown && /-> / { found = 1 }
              END { exit !found }' "$work/log"; then
      tail -40 "$work/log"
      echo "fuzz_smoke: the crash report of $target does not print the trace" >&2
      exit 1
    fi
    "$target" --replay "$crash" >"$work/replay" 2>&1
    status=$?
    if [[ $status -ne 1 ]]; then
      cat "$work/replay"
      echo "fuzz_smoke: --replay of $crash exited $status, expected 1 (findings)" >&2
      exit 1
    fi
    ;;
  scope)
    cp -r "$3"/. "$work/corpus/"
    "$target" -runs=0 -print_coverage=1 -artifact_prefix="$work/artifacts/" \
      "$work/corpus" >"$work/log" 2>&1
    grep '^COVERED_FUNC' "$work/log" >"$work/covered"
    if ! grep -q '/subjects/' "$work/covered"; then
      tail -20 "$work/log"
      echo "fuzz_smoke: $target covers no subject code" >&2
      exit 1
    fi
    harness='/harness/core/src/(sched/scheduler|sched/fiber|oracle/|kit/|sync/)|/racelab/internal/linearizability\.h'
    if grep -E "$harness" "$work/covered" >"$work/harness"; then
      head -20 "$work/harness"
      echo "fuzz_smoke: $target carries coverage of harness code ($(wc -l <"$work/harness") functions)" >&2
      exit 1
    fi
    echo "covered functions: $(wc -l <"$work/covered"), none in the harness"
    ;;
  *)
    echo "usage: fuzz_smoke.sh clean TARGET CORPUS | finds TARGET | scope TARGET CORPUS" >&2
    exit 2
    ;;
esac
