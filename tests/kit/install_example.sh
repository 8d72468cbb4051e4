#!/usr/bin/env bash
# Installs racelab from a build folder into a scratch prefix, configures
# examples/custom_store against it from a clean build folder (same compiler),
# builds it and runs its ctest. Usage: tests/kit/install_example.sh BUILD_DIR
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR (a configured and built racelab build folder)" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
compiler=${compiler:-clang++-14}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-kit.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
example_build=$scratch/build

echo "== install $build_dir -> $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null

echo "== installed headers: the user API only"
installed=$(cd "$prefix/include" && find racelab -name '*.h' | sort)
echo "$installed" | sed 's/^/   /'
for internal in runner.h gate.h json.h report.h cli.h demo.h registry.h expectation.h child_registry.h; do
  if grep -qx "racelab/$internal" <<<"$installed"; then
    echo "FAIL: racelab/$internal (not user API) is installed" >&2
    exit 1
  fi
done

echo "== racelab::sanitizer carries -g (file:line in reports without the user's flags)"
grep -A3 "racelab::sanitizer PROPERTIES" "$prefix"/lib*/cmake/racelab/racelabTargets.cmake |
  grep -q 'INTERFACE_COMPILE_OPTIONS "-g' || {
  echo "FAIL: the installed racelab::sanitizer has no -g" >&2
  exit 1
}

# A copy outside racelab's source tree, as a user's project is; no -g of its
# own: racelab::sanitizer brings it.
echo "== configure a copy of examples/custom_store ($compiler)"
cp -r "$source_dir/examples/custom_store" "$scratch/custom_store"
cmake -S "$scratch/custom_store" -B "$example_build" -G Ninja \
  -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" >/dev/null

echo "== build"
cmake --build "$example_build" -- -j"$(nproc)" | grep -E "error|warning|FAILED" -A5 || true; cmake --build "$example_build" >/dev/null

echo "== link line of ring_clean_test: the core only"
link=$(ninja -C "$example_build" -t commands ring_clean_test | tail -1)
echo "$link" | tr ' ' '\n' | grep -E '\.a$|^-l' | sed 's/^/   /'
for unwanted in racelab_runner racelab_reports racelab_cli pugixml; do
  if grep -q "$unwanted" <<<"$link"; then
    echo "FAIL: a kit test links $unwanted" >&2
    exit 1
  fi
done
grep -q "libracelab_core.a" <<<"$link" || { echo "FAIL: libracelab_core.a not linked" >&2; exit 1; }

echo "== test"
# Schedule files of the expected failures go to the scratch folder.
export TMPDIR=$scratch
ctest --test-dir "$example_build" --output-on-failure -j"$(nproc)"

echo "== run directly (no CTest environment, TSAN_OPTIONS unset)"
for binary in ring_caught_test ring_clean_test frame_location_test; do
  status=0
  env -u TSAN_OPTIONS "$example_build/$binary" >"$scratch/$binary.out" 2>&1 || status=$?
  echo "   $binary: exit $status"
  if [[ $status -ne 0 ]]; then
    tail -n 20 "$scratch/$binary.out" >&2
    echo "FAIL: $binary run directly exits $status" >&2
    exit 1
  fi
done
echo "== a failure message names the project's own frame"
grep -m1 "in bump at tests/frame_location_test.cc:" "$scratch/frame_location_test.out" | sed 's/^/   /'
