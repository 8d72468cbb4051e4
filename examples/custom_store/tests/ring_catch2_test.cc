// Catch2 (v2): the same battery, one test case per store x scenario x mode.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "racelab/catch2.h"
#include "ring/ring_spec.h"

RACELAB_CATCH2_SPEC_TESTS(MutexRing, ring::ring_spec());
RACELAB_CATCH2_SPEC_EXPECT_CAUGHT(SplitCheckRing,
                                  ring::split_check_ring_spec());
