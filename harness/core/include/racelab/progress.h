// A process-wide progress counter: every completed operation, iterator step
// and scheduling decision bumps it, and a run's watchdog calls a run hung only
// when the counter stands still. "No progress for the limit" instead of "took
// longer than the limit" keeps verdicts independent of how busy the machine is.
#ifndef RACELAB_PROGRESS_H_
#define RACELAB_PROGRESS_H_

#include <atomic>
#include <cstdint>

namespace racelab {

namespace progress_internal {
// Process-wide on purpose, and not part of a Session (session.h): the counter
// only grows, and every reader (a watchdog, a stress nudge) compares two of
// its own readings, so nothing one run leaves in it can change the next
// run's verdict; an inline counter keeps note_progress() a single increment.
inline std::atomic<std::uint64_t> g_steps{0};
}  // namespace progress_internal

// Records one step of progress. Relaxed on purpose: the counter is read only
// by the watchdog, and a relaxed atomic adds no happens-before edge that could
// hide a race between the threads that bump it.
inline void note_progress() {
  progress_internal::g_steps.fetch_add(1, std::memory_order_relaxed);
}

// The number of steps so far.
inline std::uint64_t progress_steps() {
  return progress_internal::g_steps.load(std::memory_order_relaxed);
}

}  // namespace racelab

#endif  // RACELAB_PROGRESS_H_
