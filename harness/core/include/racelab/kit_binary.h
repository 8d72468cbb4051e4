// Marks the binary that includes it as a kit test binary: racelab's core then
// runs it with the TSan options the kit needs (exitcode=0, since the kit
// judges TSan's reports itself; suppress_equal_stacks=0 and
// suppress_equal_addresses=0, so every report is seen in every check and
// schedule of the one process) and makes a dying sanitizer runtime exit
// non-zero (kSanitizerDiedExitCode, sanitizer_capture.h). Run directly or
// under CTest, the binary behaves the same. gtest.h and catch2.h include it;
// a test binary with its own main and neither includes it in one file.
//
// The marker is a weak function: every file that includes this header
// defines it, and the linker keeps one. The core declares it weak too, so
// binaries without it (the racelab command, its case children, the gate)
// keep TSan's defaults (sanitizer_capture.cc).
#ifndef RACELAB_KIT_BINARY_H_
#define RACELAB_KIT_BINARY_H_

#include "racelab/internal/sanitizer_capture.h"

// The call pulls the core's sanitizer_capture.cc (where the options and the
// death callback live) into a binary that uses nothing else of the core.
extern "C" __attribute__((weak, used)) int racelab_kit_test_binary() {
  return racelab::built_with_tsan() ? 1 : 2;
}

// The folder the binary's project was built from, for messages that name the
// user's files relative to it ("ring/split_check_ring.cc:31") and for
// telling the user's frames from system code (sanitizer_capture.h):
// racelab_add_store_tests defines RACELAB_PROJECT_SOURCE_DIR.
extern "C" __attribute__((weak, used)) const char* racelab_kit_project_dir() {
#ifdef RACELAB_PROJECT_SOURCE_DIR
  return RACELAB_PROJECT_SOURCE_DIR;
#else
  return "";
#endif
}

#endif  // RACELAB_KIT_BINARY_H_
