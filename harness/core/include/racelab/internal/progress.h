// A process-wide progress counter: every completed operation, iterator step
// and scheduling decision bumps it, and a run's watchdog calls a run hung only
// when the counter stands still. "No progress for the limit" instead of "took
// longer than the limit" keeps verdicts independent of how busy the machine is.
#ifndef RACELAB_PROGRESS_H_
#define RACELAB_PROGRESS_H_

#include <cstdint>

namespace racelab {

// Records one step of progress. The counter is a relaxed atomic in
// uninstrumented code (interpose.cc): TSan sees no access and no
// happens-before edge that could hide a race between the threads that bump
// it, and bumping it is never a scheduling point. Process-wide on purpose,
// and not part of a Session: the counter only grows, and every reader (a
// watchdog, a stress nudge) compares two of its own readings.
void note_progress();

// The number of steps so far.
std::uint64_t progress_steps();

}  // namespace racelab

#endif  // RACELAB_PROGRESS_H_
