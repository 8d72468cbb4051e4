// The ring buffer's libFuzzer target: one line.
#include "racelab/fuzz_target.h"
#include "racelab/spec.h"
#include "ring/ring_spec.h"

RACELAB_SPEC_FUZZ_TARGET(ring::ring_spec());
