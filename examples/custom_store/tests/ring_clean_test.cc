// GoogleTest: the correct ring buffer must be clean in every scenario x mode
// x oracle. One line per store.
#include "racelab/gtest.h"
#include "ring/ring_family.h"

using ring::MutexRingTraits;

RACELAB_STORE_TESTS(MutexRingTraits);
