#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what is missing, then
# configures, builds and tests the TSan and ASan presets (unit tests,
# conformance tests, end-to-end tests of the CLI, the gate, the reports and the
# installed package), the Debian package (ci/package.sh: built, installed with
# apt, used, removed), the libc++ build (tsan-libcxx preset: the core, the
# subjects and tests/stdlib; about a minute on 2 cores, docs/libcxx.md), and a
# short libFuzzer smoke run (fuzz preset: only the targets the smoke tests use).
set -euo pipefail
cd "$(dirname "$0")/.."

# ctest --preset <preset> [args]; when tests fail, prints the end of each
# failed test's output once more after ctest's summary (a long log's reader
# sees its tail first), then fails.
run_ctest() {
  local preset=$1
  shift
  ctest --preset "$preset" "$@" && return 0
  local log=build/$preset/Testing/Temporary/LastTest.log
  local failed=build/$preset/Testing/Temporary/LastTestsFailed.log
  if [[ -f $log && -f $failed ]]; then
    while IFS=: read -r _ name; do
      echo "== $preset: the end of $name's output"
      awk -v name="$name" '
        $0 ~ "^[0-9]+/[0-9]+ Test: " && $3 == name { on = 1; n = 0; next }
        on && /^<end of output>$/ { on = 0 }
        on { lines[n++ % 40] = $0 }
        END { for (i = (n > 40 ? n - 40 : 0); i < n; i++) print lines[i % 40] }
      ' "$log"
    done <"$failed"
  fi
  return 1
}

bash ci/install-deps.sh
jobs=$(nproc)
for preset in tsan asan; do
  echo "== $preset (at ${SECONDS} s)"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  if [[ $preset == tsan ]]; then
    # kit_install_example's script runs in ci/package.sh below, against the
    # installed package instead of a scratch prefix.
    run_ctest "$preset" -j "$jobs" --timeout 900 -E '^kit_install_example$'
    echo "== the Debian package (installed, used, removed; at ${SECONDS} s)"
    bash ci/package.sh build/tsan
  else
    run_ctest "$preset" -j "$jobs" --timeout 900
  fi
done

echo "== tsan-libcxx (at ${SECONDS} s)"
cmake --preset tsan-libcxx >/dev/null
cmake --build --preset tsan-libcxx -j "$jobs"
run_ctest tsan-libcxx -j "$jobs" --timeout 300

echo "== fuzz (smoke; at ${SECONDS} s)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs" --target racelab_fuzz_tests \
  fuzz_checkpoint_mutex fuzz_state_snapshot fuzz_checkpoint_split_lock \
  fuzz_checkpoint_unsynchronized \
  fuzz_state_unlock_during_iteration fuzz_schedule_file fuzz_program_text
run_ctest fuzz -j "$jobs" --timeout 300
echo "== done in ${SECONDS} s"
