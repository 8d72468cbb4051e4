// libFuzzer's code coverage under ThreadSanitizer, with fibers.
//
// -fsanitize=fuzzer-no-link makes every function bump an 8-bit counter (in
// the __sancov_cntrs section) and, on Linux, write the lowest stack address
// seen to the thread-local __sancov_lowest_stack. clang 14's TSan instruments
// those writes, and in controlled mode the logical threads are fibers with no
// happens-before between them, so every function that two logical threads
// run would be reported as a data race: in the harness and in fixed subjects
// alike. This marks both as benign races for TSan, once per process, on the
// OS thread that runs the inputs. No-op without TSan or without coverage.
#ifndef RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_
#define RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_

namespace racelab::fuzz {

void tolerate_coverage_writes();

}  // namespace racelab::fuzz

#endif  // RACELAB_FUZZ_COVERAGE_UNDER_TSAN_H_
