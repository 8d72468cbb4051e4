#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what is missing, then
# configures, builds and tests the TSan and ASan presets (unit tests,
# conformance tests, end-to-end tests of the CLI, the gate, the reports and the
# installed package), the libc++ build (tsan-libcxx preset: the core, the
# subjects and tests/stdlib; about a minute on 2 cores, docs/libcxx.md), and a
# short libFuzzer smoke run (fuzz preset: only the targets the smoke tests use).
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
jobs=$(nproc)
for preset in tsan asan; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs" --timeout 900
done

echo "== tsan-libcxx"
cmake --preset tsan-libcxx >/dev/null
cmake --build --preset tsan-libcxx -j "$jobs"
ctest --preset tsan-libcxx -j "$jobs" --timeout 300

echo "== fuzz (smoke)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs" --target racelab_fuzz_tests \
  fuzz_checkpoint_mutex fuzz_state_snapshot fuzz_checkpoint_split_lock \
  fuzz_checkpoint_unsynchronized \
  fuzz_state_unlock_during_iteration fuzz_schedule_file fuzz_program_text
ctest --preset fuzz -j "$jobs" --timeout 300
