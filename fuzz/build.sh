#!/bin/bash -eu
# Builds racelab's fuzz targets in the OSS-Fuzz / ClusterFuzzLite convention.
#
# Honours CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, OUT, SRC and WORK
# (OSS-Fuzz sets them all). Standalone defaults: clang-14, the TSan flavour
# (-fsanitize=fuzzer-no-link,thread; SANITIZER=address gives ASan+UBSan),
# libFuzzer, OUT=build/oss-fuzz/out, WORK=build/oss-fuzz/work. Every target
# lands in $OUT with <target>_seed_corpus.zip, <target>.dict and
# <target>.options next to it; the per-subject targets
# (fuzz_checkpoint_split_lock, ...) share their family's seeds, dictionary and
# options.
#
#   CC=clang-14 CXX=clang++-14 CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,thread" \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/build.sh

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
if [[ -n ${SRC:-} && -d ${SRC}/racelab/fuzz ]]; then root=$SRC/racelab; here=$root/fuzz; fi

: "${SANITIZER:=thread}"
case $SANITIZER in
  thread) default_san=thread ;;
  address) default_san=address,undefined ;;
  undefined) default_san=undefined ;;
  *) echo "build.sh: SANITIZER=$SANITIZER is not supported (thread, address, undefined)" >&2; exit 2 ;;
esac
: "${CC:=clang-14}"
: "${CXX:=clang++-14}"
: "${CFLAGS:=-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,$default_san}"
: "${CXXFLAGS:=$CFLAGS}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:=$root/build/oss-fuzz/out}"
: "${WORK:=$root/build/oss-fuzz/work}"

# racelab links the distribution's Abseil, GoogleTest and pugixml, built
# against libstdc++: OSS-Fuzz's -stdlib=libc++ would not link with them.
cxxflags=${CXXFLAGS//-stdlib=libc++/}
# No coverage in the sanitizer-option callbacks (see coverage_ignorelist.txt).
cxxflags="$cxxflags -fsanitize-coverage-ignorelist=$here/coverage_ignorelist.txt"
# No coverage in the harness that drives the stores (harness_coverage_ignorelist.txt).
cxxflags="$cxxflags -fsanitize-coverage-ignorelist=$here/harness_coverage_ignorelist.txt"

build=$WORK/racelab-fuzz-build
mkdir -p "$OUT" "$build"
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="$cxxflags" \
  -DRACELAB_SANITIZER=none -DRACELAB_FUZZ=ON \
  -DRACELAB_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DBUILD_TESTING=OFF
mapfile -t targets < <(grep -v '^$' "$build/fuzz/fuzz_targets.txt")
cmake --build "$build" --target "${targets[@]}"

# The family a target takes its seeds, dictionary and options from.
family_of() {
  case $1 in
    fuzz_checkpoint*) echo fuzz_checkpoint ;;
    fuzz_state*) echo fuzz_state ;;
    *) echo "$1" ;;
  esac
}

zip_dir() {  # zip_dir DIR ZIPFILE: the files of DIR, flat
  rm -f "$2"
  if command -v zip >/dev/null; then
    (cd "$1" && zip -q -X "$2" ./*)
  else
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
PY
  fi
}

for t in "${targets[@]}"; do
  cp "$build/fuzz/$t" "$OUT/$t"
  f=$(family_of "$t")
  if [[ -d $here/corpus/$f ]]; then zip_dir "$here/corpus/$f" "$OUT/${t}_seed_corpus.zip"; fi
  if [[ -f $here/$f.dict ]]; then cp "$here/$f.dict" "$OUT/$t.dict"; fi
  # ClusterFuzz picks up <target>.dict by its name; no dict line needed.
  if [[ -f $here/$f.options ]]; then cp "$here/$f.options" "$OUT/$t.options"; fi
done
echo "build.sh: ${#targets[@]} fuzz targets in $OUT"
