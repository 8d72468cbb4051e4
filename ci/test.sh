#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what is missing, then
# configures, builds and tests the TSan and ASan presets (unit tests,
# conformance tests, end-to-end tests of the CLI and the gate).
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
