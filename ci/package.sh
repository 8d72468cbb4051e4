#!/usr/bin/env bash
# The Debian package end to end, as a user meets it: builds it with CPack
# from a built tsan folder (cmake/RacelabPackage.cmake), installs it with apt
# (its dependencies as declared, nothing installed by hand), uses it (the
# command, its manual page, the demo from the installed sources, and
# examples/custom_store found by find_package(racelab) from /usr with no
# prefix: tests/kit/install_example.sh --installed /usr), then removes it and
# checks that none of its files is left.
# Usage: ci/package.sh [BUILD_DIR]   (default build/tsan; root, as apt is)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/tsan}
fail() {
  echo "package: FAIL: $*" >&2
  exit 1
}
if [[ ! -f $build_dir/CPackConfig.cmake || ! -x $build_dir/racelab ]]; then
  echo "package: $build_dir is not a built racelab folder (no CPackConfig.cmake or racelab)" >&2
  exit 2
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "package: installing the package needs root (apt)" >&2
  exit 2
fi
# An installed racelab is the machine's, not this script's to replace or
# remove.
if dpkg-query -W -f='${Status}' racelab 2>/dev/null | grep -q "installed"; then
  echo "package: a racelab package is already installed; remove it first (apt remove racelab)" >&2
  exit 2
fi

echo "== cpack"
out=$build_dir/package
cpack --config "$build_dir/CPackConfig.cmake" -B "$out" >/dev/null
version=$("$build_dir/racelab" --version | awk '{print $2}')
deb=$(cd "$out" && pwd)/racelab_${version}_amd64.deb
[[ -f $deb ]] || fail "cpack made no $deb"
echo "   $(basename "$deb") $(du -h "$deb" | cut -f1)"
depends=$(dpkg-deb -f "$deb" Depends)
depends_names=$(tr ',' '\n' <<<"$depends" | awk '{print $1}')
for needed in clang-14 libclang-rt-14-dev llvm-14 libabsl-dev libboost-context-dev \
  nlohmann-json3-dev libpugixml-dev libpugixml1v5 libstdc++6; do
  grep -qxF "$needed" <<<"$depends_names" || fail "Depends does not name $needed: $depends"
done

echo "== apt install ./$(basename "$deb")"
export DEBIAN_FRONTEND=noninteractive
removed=0
remove() {
  ((removed)) && return 0
  removed=1
  apt-get remove -y -qq racelab >/dev/null 2>&1 || true
}
trap remove EXIT
apt-get install -y -qq "$deb" >/dev/null
files=$(dpkg -L racelab)

echo "== the installed command"
[[ $(command -v racelab) == /usr/bin/racelab ]] || fail "racelab is $(command -v racelab), not /usr/bin/racelab"
[[ $(racelab --version) == "racelab $version" ]] || fail "racelab --version says $(racelab --version)"
zcat /usr/share/man/man1/racelab.1.gz | grep -q '^\.TH RACELAB 1' || fail "no manual page racelab(1)"
[[ -f /usr/share/doc/racelab/cli.md ]] || fail "no /usr/share/doc/racelab/cli.md"
demo=$(racelab demo concurrent-map-write 2>&1) || fail "racelab demo failed: $demo"
grep -q "cannot read" <<<"$demo" && fail "the demo cannot read a subject's source: $(grep "cannot read" <<<"$demo")"
grep -q "^1. The buggy code (subjects/checkpoint/unsynchronized.cc)" <<<"$demo" ||
  fail "the demo does not show the buggy code"
echo "   $(racelab --version), racelab(1), docs, demo"

echo "== a project finds it: examples/custom_store"
bash tests/kit/install_example.sh --installed /usr "$build_dir"

echo "== apt remove racelab"
remove
if dpkg-query -W -f='${Status}' racelab 2>/dev/null | grep -q "installed"; then
  fail "racelab is still installed"
fi
left=0
while IFS= read -r path; do
  [[ -f $path || -L $path ]] && { echo "   left: $path" >&2; left=1; }
done <<<"$files"
[[ -d /usr/include/racelab || -d /usr/lib/cmake/racelab || -d /usr/share/racelab ]] && left=1
((left == 0)) || fail "files of the package are left after apt remove"
echo "   $(wc -l <<<"$files") paths installed, none left"
echo "PASS"
