// GoogleTest: the correct ring buffer must be clean in every scenario x mode
// x oracle. One line per store.
#include "racelab/gtest.h"
#include "ring/ring_spec.h"

RACELAB_SPEC_TESTS(MutexRing, ring::ring_spec());
