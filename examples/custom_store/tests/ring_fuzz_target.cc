// The ring buffer's libFuzzer target: one line.
#include "racelab/fuzz_target.h"
#include "ring/ring_family.h"

using ring::MutexRingTraits;

RACELAB_FUZZ_TARGET(MutexRingTraits);
