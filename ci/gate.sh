#!/usr/bin/env bash
# The gate, from a fresh machine: installs what is missing, builds the one
# target the gate runs in the TSan preset (the racelab command: the catalog's
# subjects and scenarios are linked into it, and each case's child is a copy
# of it, `racelab __child`), runs every case and judges it against the
# expectation table. ci/test.sh builds and runs everything else.
# Usage: bash ci/gate.sh [racelab gate options]   (default: --mode stress --runs 20)
# Exit status: 0 every expectation met, 1 a mismatch, 2 usage error, 3 harness failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
cmake --preset tsan >/dev/null
cmake --build --preset tsan --target racelab

args=("$@")
if ((${#args[@]} == 0)); then
  args=(--mode stress --runs 20)
fi
exec build/tsan/racelab gate --out reports/out/gate "${args[@]}"
