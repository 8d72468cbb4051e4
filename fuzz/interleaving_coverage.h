// Interleaving coverage for libFuzzer: at each preemption of a controlled run,
// the pair (site switched away from, site switched to) is hashed into
// libFuzzer's extra counters, so an input that produces a new interleaving
// counts as progress even when it runs no new code.
//
// A site is the scheduling point a thread stopped at ("lock", "pause",
// "unlock_shared", ...) together with the kind of the operation that thread
// was running ("commit", "all", ...; "-" before its first operation).
#ifndef RACELAB_FUZZ_INTERLEAVING_COVERAGE_H_
#define RACELAB_FUZZ_INTERLEAVING_COVERAGE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "racelab/internal/sched/scheduler.h"

namespace racelab::fuzz {

inline constexpr std::size_t kInterleavingCounters = 4096;

// Follows one controlled run: which operation each thread is in (it counts
// the "op" scheduling point every program thread passes before each
// operation) and, when `enabled`, bumps the counter of every preemption pair.
class InterleavingCoverage {
 public:
  // op_kinds[t][i]: the kind name of thread t's i-th operation.
  InterleavingCoverage(std::vector<std::vector<std::string>> op_kinds,
                       bool enabled);

  // Installs this object as `scheduler`'s switch observer until destroyed.
  void attach(sched::ControlledScheduler& scheduler);
  ~InterleavingCoverage();
  InterleavingCoverage(const InterleavingCoverage&) = delete;
  InterleavingCoverage& operator=(const InterleavingCoverage&) = delete;

  int preemptions() const { return preemptions_; }

 private:
  static void observe(const sched::SwitchEvent& event, void* self);
  std::uint64_t site_hash(int thread, const char* site) const;

  std::vector<std::vector<std::string>> op_kinds_;
  std::vector<int> op_index_;  // per thread: operations begun
  bool enabled_;
  int preemptions_ = 0;
  sched::ControlledScheduler* scheduler_ = nullptr;
};

// The counters themselves (for tests): libFuzzer reads them after each input.
const std::uint8_t* interleaving_counters();

}  // namespace racelab::fuzz

#endif  // RACELAB_FUZZ_INTERLEAVING_COVERAGE_H_
