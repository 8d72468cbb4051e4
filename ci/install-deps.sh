#!/usr/bin/env bash
# Installs the Debian 12 packages racelab needs to build, test and run its gate.
# Idempotent: installs only what is missing. Runs as root (no sudo) on a fresh machine.
set -euo pipefail

packages=(
  clang-14 libclang-rt-14-dev llvm-14   # compiler, TSan/ASan/UBSan/libFuzzer runtimes, llvm-symbolizer
  cmake ninja-build
  libgtest-dev libgmock-dev libbenchmark-dev catch2
  libabsl-dev nlohmann-json3-dev libcli11-dev libpugixml-dev
  chromium                              # renders index.html in the report tests (headless)
  zip                                   # fuzz/build.sh packs the seed corpora
  libboost-dev                          # tests/thirdparty: Boost.Lockfree's spsc_queue
  libboost-context-dev                  # the fibers' stack switch (jump_fcontext)
  libconcurrentqueue-dev                # tests/thirdparty: moodycamel::ConcurrentQueue
  libtbb-dev                            # tests/thirdparty: oneTBB's concurrent_hash_map
  libc++-14-dev libc++abi-14-dev        # the tsan-libcxx preset (clang++-14 -stdlib=libc++)
  gdb                                   # the stacks of a hung program's threads (explore, replay)
  dpkg-dev file                         # cpack's Debian package: dpkg-shlibdeps (ci/package.sh)
)
# The report tests validate JSON with ajv from npm: Debian's nodejs and npm
# unless a Node.js (with its npm) is already installed.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: missing packages (${missing[*]}) and not root; install them and retry" >&2
  exit 2
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
