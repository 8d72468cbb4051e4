// libFuzzer's coverage counters under TSan: -fsanitize=fuzzer makes every
// function bump a counter, and TSan instruments those writes, so two logical
// threads running the same function would be reported as a race that is not
// the subject's. The kit's fuzz-target header already marks the counters as
// benign; the built-in targets use the same function.
#ifndef RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_
#define RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_

#include "racelab/fuzz_target.h"

namespace racelab::fuzz {

using racelab::fuzz_internal::tolerate_coverage_writes;

}  // namespace racelab::fuzz

#endif  // RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_
