// The libFuzzer entry points of the checkpoint and state targets. The build
// compiles this file once per target with:
//   RACELAB_FUZZ_FAMILY       "checkpoint" or "state"
//   RACELAB_FUZZ_SUBJECT      the variant ("split_lock"), or "" for a family
//                             target that picks the subject from byte 0
//   RACELAB_FUZZ_INTERLEAVING 1 (default) or 0: the interleaving counters
//                             (the *_nocov targets, for comparison)
// `<target> --replay FILE` prints the decoded program, the findings and the
// trace of FILE (a crash input) and exits 1 if it has findings, 0 if not.
#include <cstddef>
#include <cstdint>

#include "family_fuzzer.h"

#ifndef RACELAB_FUZZ_FAMILY
#error "RACELAB_FUZZ_FAMILY must name the family"
#endif
#ifndef RACELAB_FUZZ_SUBJECT
#define RACELAB_FUZZ_SUBJECT ""
#endif
#ifndef RACELAB_FUZZ_INTERLEAVING
#define RACELAB_FUZZ_INTERLEAVING 1
#endif

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  racelab::fuzz::configure({RACELAB_FUZZ_FAMILY, RACELAB_FUZZ_SUBJECT,
                            RACELAB_FUZZ_INTERLEAVING != 0});
  racelab::fuzz::maybe_replay(*argc, *argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  return racelab::fuzz::fuzz_one_input(data, size);
}
