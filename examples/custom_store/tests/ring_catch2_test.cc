// Catch2 (v2): the same battery, one test case per store x scenario x mode.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "racelab/catch2.h"
#include "ring/ring_family.h"

using ring::MutexRingTraits;
using ring::SplitCheckRingTraits;

RACELAB_CATCH2_STORE_TESTS(MutexRingTraits);
RACELAB_CATCH2_EXPECT_CAUGHT(SplitCheckRingTraits);
