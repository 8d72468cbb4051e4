// What every racelab fuzz target does with the run of one input: print the
// findings, the program, the decisions and the trace, and abort so that
// libFuzzer keeps the input (finish_fuzz_input); or print the same report for
// a replayed input. The family targets (fuzz/) and a kit user's target
// (fuzz_target.h) share it.
#ifndef RACELAB_FUZZ_REPORT_H_
#define RACELAB_FUZZ_REPORT_H_

#include <string>
#include <string_view>

#include "racelab/internal/case.h"

namespace racelab {

// The report of one fuzz input's run (`run.schedule.program` encoded as
// setup, threads..., finale):
//
//   racelab fuzz: 2 finding(s) on checkpoint/split_lock
//     not_linearizable (invariant): ...
//   program:
//     setup: ...
//     thread 0: ...
//   decisions (12, 1 preemptions, completed): 0 0 1 ...
//   trace:
//   step | thread 0 | ...
std::string format_fuzz_report(std::string_view subject,
                               const RunObservation& run);

// With no finding, returns 0. Otherwise prints the report and how to replay
// the input (`replay_hint`) to stderr and aborts.
int finish_fuzz_input(std::string_view subject, const RunObservation& run,
                      std::string_view replay_hint);

}  // namespace racelab

#endif  // RACELAB_FUZZ_REPORT_H_
