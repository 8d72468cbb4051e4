#!/usr/bin/env bash
# Runs a kit test binary directly, as a user would (TSAN_OPTIONS unset, no
# CTest environment), and checks its exit status and output.
#   run_direct.sh caught BINARY   exits 0: expected races judged by the kit
#   run_direct.sh dies BINARY     exits non-zero, with the kit's one line
set -uo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 caught|dies BINARY" >&2
  exit 2
fi
mode=$1
binary=$2
out=$(mktemp "${TMPDIR:-/tmp}/racelab-direct.XXXXXX")
trap 'rm -f "$out"' EXIT
env -u TSAN_OPTIONS -u ASAN_OPTIONS TMPDIR="${TMPDIR:-/tmp}" "$binary" >"$out" 2>&1
status=$?
tail -n 30 "$out"
echo "== $binary exited $status"
case $mode in
  caught)
    if [[ $status -ne 0 ]]; then
      echo "FAIL: run directly, a binary whose races are expected must exit 0" >&2
      exit 1
    fi
    ;;
  dies)
    if [[ $status -eq 0 ]]; then
      echo "FAIL: the sanitizer died and the binary exited 0" >&2
      exit 1
    fi
    if ! grep -q "racelab: the sanitizer runtime died" "$out"; then
      echo "FAIL: no line from the kit saying the sanitizer died" >&2
      exit 1
    fi
    ;;
  *)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
echo "OK"
