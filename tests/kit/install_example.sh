#!/usr/bin/env bash
# Installs racelab from a build folder into a scratch prefix, configures
# examples/custom_store against it from a clean build folder (same compiler),
# builds it and runs its ctest. Usage: tests/kit/install_example.sh BUILD_DIR
# With --installed PREFIX, racelab is already installed there (the Debian
# package in /usr: ci/package.sh) and found with no CMAKE_PREFIX_PATH, as a
# user's project finds it; BUILD_DIR only says which compiler and sanitizer.
set -euo pipefail

installed_prefix=
if [[ $# -eq 3 && $1 == --installed ]]; then
  installed_prefix=$2
  shift 2
fi
if [[ $# -ne 1 ]]; then
  echo "usage: $0 [--installed PREFIX] BUILD_DIR (a configured and built racelab build folder)" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
compiler=${compiler:-clang++-14}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/racelab-kit.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
example_build=$scratch/build
if [[ -n $installed_prefix ]]; then
  prefix=$installed_prefix
  prefix_path=()
  echo "== racelab installed in $prefix: found by find_package with no prefix"
else
  prefix=$scratch/prefix
  prefix_path=(-DCMAKE_PREFIX_PATH="$prefix")
  echo "== install $build_dir -> $prefix"
  cmake --install "$build_dir" --prefix "$prefix" >/dev/null
fi

echo "== installed headers: exactly tests/kit/installed_headers.txt"
installed=$(cd "$prefix/include" && find racelab -name '*.h' | LC_ALL=C sort)
expected=$(grep -v '^#' "$source_dir/tests/kit/installed_headers.txt")
if [[ $installed != "$expected" ]]; then
  diff <(echo "$expected") <(echo "$installed") | sed 's/^/   /' >&2
  echo "FAIL: the installed headers differ from tests/kit/installed_headers.txt (< expected, > installed)" >&2
  exit 1
fi
public=$(grep -v '/internal/' <<<"$installed")
echo "   $(wc -l <<<"$installed") headers, $(wc -l <<<"$public") public:" $(sed 's|^racelab/||' <<<"$public")

# A consumer that names no C++ standard of its own compiles every public
# header on its own: racelab::core says C++20, and no public header needs
# anything but the package.
echo "== a consumer compiles each public header alone ($compiler)"
consumer=$scratch/consumer
mkdir -p "$consumer/src"
cat >"$consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(racelab_consumer LANGUAGES CXX)
find_package(racelab REQUIRED COMPONENTS core)
find_package(GTest REQUIRED)
find_package(Catch2 2 REQUIRED)
file(GLOB sources ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cc)
add_library(consumer OBJECT ${sources})
target_compile_options(consumer PRIVATE -Wall -Wextra -Werror)
target_link_libraries(consumer PRIVATE racelab::core GTest::gtest Catch2::Catch2)
CMAKE
for header in $public; do
  name=$(basename "$header" .h)
  {
    echo "// Compiles $header on its own."
    [[ $name == catch2 ]] && echo "#include <catch2/catch.hpp>"
    echo "#include \"$header\""
  } >"$consumer/src/$name.cc"
done
cmake -S "$consumer" -B "$consumer/build" -G Ninja -DCMAKE_CXX_COMPILER="$compiler" \
  "${prefix_path[@]}" -DCMAKE_BUILD_TYPE=None >/dev/null
cmake --build "$consumer/build" >"$scratch/consumer.out" 2>&1 || {
  cat "$scratch/consumer.out" >&2
  echo "FAIL: a public header does not compile against the installed package" >&2
  exit 1
}
# -std=gnu++20 with CMake's default extensions, -std=c++2a on older compilers.
# Read whole before grep: under pipefail, grep -q leaving early would make
# ninja die of SIGPIPE, a failure that depends on timing.
commands=$(ninja -C "$consumer/build" -t commands)
grep -qE -- '-std=(c|gnu)\+\+(20|2a)' <<<"$commands" || {
  echo "FAIL: racelab::core does not carry C++20 to its consumer" >&2
  exit 1
}
echo "   $(ls "$consumer/src" | wc -l) headers compiled, C++20 from racelab::core"

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
  -DCMAKE_CXX_COMPILER="$compiler" "${prefix_path[@]}" \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" >/dev/null
found=$(sed -n 's/^racelab_DIR:PATH=//p' "$example_build/CMakeCache.txt")
echo "   racelab_DIR=$found"
[[ $found == "$prefix"/lib*/cmake/racelab ]] || {
  echo "FAIL: find_package(racelab) found $found, not the package in $prefix" >&2
  exit 1
}

echo "== build"
cmake --build "$example_build" -- -j"$(nproc)" | grep -E "error|warning|FAILED" -A5 || true; cmake --build "$example_build" >/dev/null

echo "== link line of ring_clean_test: the core and the reports listener"
link=$(ninja -C "$example_build" -t commands ring_clean_test | tail -1)
echo "$link" | tr ' ' '\n' | grep -E '\.a$|^-l' | sed 's/^/   /'
if grep -q "racelab_cli" <<<"$link"; then
  echo "FAIL: a kit test links racelab_cli" >&2
  exit 1
fi
grep -q "libracelab_core.a" <<<"$link" || { echo "FAIL: libracelab_core.a not linked" >&2; exit 1; }
grep -q "libracelab_kit_reports.a" <<<"$link" || { echo "FAIL: libracelab_kit_reports.a not linked" >&2; exit 1; }
echo "== racelab::core itself links none of the runner, the reports, pugixml"
targets=$(ls "$prefix"/lib*/cmake/racelab/racelabTargets.cmake | head -1)
core_links=$(sed -n '/^set_target_properties(racelab::core /,/^)/p' "$targets" | grep INTERFACE_LINK_LIBRARIES)
echo "   $core_links"
for unwanted in runner reports pugixml; do
  if grep -q "$unwanted" <<<"$core_links"; then
    echo "FAIL: racelab::core links $unwanted" >&2
    exit 1
  fi
done

echo "== test"
# Schedule files of the expected failures go to the scratch folder.
export TMPDIR=$scratch XDG_STATE_HOME=$scratch
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
# The frame test reports a data race: a ThreadSanitizer build only.
if grep -q '^RACELAB_SANITIZER:[A-Z]*=thread' "$build_dir/CMakeCache.txt"; then
  echo "== a failure message names the project's own frame"
  grep -m1 "in bump at tests/frame_location_test.cc:" "$scratch/frame_location_test.out" | sed 's/^/   /'
fi

echo "== a failing kit test's message ends with its replay command"
caught=$example_build/ring_caught_test
caught_test=Racelab/SplitCheckRing.Caught/any_scenario__controlled__all
"$caught" --gtest_filter="$caught_test" >"$scratch/caught.out" 2>&1 || { cat "$scratch/caught.out"; echo "FAIL: $caught_test" >&2; exit 1; }
command=$(sed -n 's/^replay: //p' "$scratch/caught.out" | tail -1)
echo "   $command"
[[ $command == "RACELAB_REPLAY="*" $caught --gtest_filter=$caught_test" ]] || { cat "$scratch/caught.out"; echo "FAIL: no replay command" >&2; exit 1; }
schedule=$(sed -n 's/^RACELAB_REPLAY=\([^ ]*\) .*/\1/p' <<<"$command")

echo "== the replay command reruns the schedule through the test binary"
eval "$command" >"$scratch/replay.out" 2>&1 || { cat "$scratch/replay.out"; echo "FAIL: the replay did not reproduce the bug" >&2; exit 1; }
grep -q "^replaying $schedule" "$scratch/replay.out" || { cat "$scratch/replay.out"; echo "FAIL: no replay" >&2; exit 1; }
grep -q "replay followed the recorded decisions exactly" "$scratch/replay.out" || { cat "$scratch/replay.out"; echo "FAIL: the replay left the file" >&2; exit 1; }
grep -q "| thread 0" "$scratch/replay.out" || { cat "$scratch/replay.out"; echo "FAIL: no trace" >&2; exit 1; }
sed -n '/^replaying/,/^replay followed/p' "$scratch/replay.out" | sed 's/^/   /'

echo "== the schedule of another test is refused"
if RACELAB_REPLAY=$schedule "$example_build/ring_clean_test" \
    --gtest_filter='Racelab/MutexRing.Clean/last_slot__controlled__linearizability' >"$scratch/other.out" 2>&1; then
  cat "$scratch/other.out"; echo "FAIL: another test's schedule was accepted" >&2; exit 1
fi
grep -q "the file belongs to another test" "$scratch/other.out" || { cat "$scratch/other.out"; echo "FAIL: no 'belongs to another test'" >&2; exit 1; }

echo "== RACELAB_REPORT_DIR: the gate's five reports for the user's tests"
reports=$scratch/reports
RACELAB_REPORT_DIR=$reports "$caught" >/dev/null 2>&1 || { echo "FAIL: ring_caught_test failed" >&2; exit 1; }
RACELAB_REPORT_DIR=$reports "$example_build/ring_clean_test" \
  --gtest_filter='Racelab/MutexRing.Clean/last_slot__controlled__*' >/dev/null 2>&1 || { echo "FAIL: ring_clean_test failed" >&2; exit 1; }
for file in results.json junit.xml results.sarif summary.md index.html; do
  [[ -s $reports/$file ]] || { echo "FAIL: no $file in $reports" >&2; exit 1; }
  echo "   $file $(wc -c <"$reports/$file") bytes"
done
grep -q '"subject": "ring/split_check"' "$reports/results.json" || { echo "FAIL: results.json has no ring/split_check case" >&2; exit 1; }
grep -q '"subject": "ring/mutex"' "$reports/results.json" || { echo "FAIL: results.json has no ring/mutex case (a second process)" >&2; exit 1; }
grep -q "tests/ring_caught_test.cc" "$reports/results.sarif" || { echo "FAIL: results.sarif does not name the user's file" >&2; exit 1; }
echo "PASS"
