#!/usr/bin/env bash
# Short libFuzzer runs for CTest.
#   fuzz_smoke.sh clean TARGET CORPUS   2000 runs over a copy of the seed
#                                       corpus; must exit 0 (no finding)
#   fuzz_smoke.sh finds TARGET          from an empty corpus, bounded runs;
#                                       must write a crash-* file, and
#                                       TARGET --replay on it must report a
#                                       finding (exit 1)
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
    "$target" --replay "$crash" >"$work/replay" 2>&1
    status=$?
    if [[ $status -ne 1 ]]; then
      cat "$work/replay"
      echo "fuzz_smoke: --replay of $crash exited $status, expected 1 (findings)" >&2
      exit 1
    fi
    ;;
  *)
    echo "usage: fuzz_smoke.sh clean TARGET CORPUS | finds TARGET" >&2
    exit 2
    ;;
esac
