#!/bin/bash -eu
# ClusterFuzzLite entry point: the OSS-Fuzz environment (CC, CXX, CFLAGS,
# CXXFLAGS, LIB_FUZZING_ENGINE, OUT, SRC, WORK, SANITIZER) is already set;
# fuzz/build.sh does the rest.
"$SRC/racelab/fuzz/build.sh"
