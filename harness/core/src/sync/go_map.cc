// The fault log of racelab::GoMap.
#include "racelab/go_map.h"

#include <algorithm>

#include "racelab/session_state.h"

namespace racelab {
namespace {

// The fault log lives in the current session (session_state.h).
using Faults = session_internal::GoMapFaults;
__attribute__((no_sanitize("thread"))) Faults& faults() {
  return session_internal::current().go_map;
}

}  // namespace

const char* go_map_message(GoMapFault fault) {
  switch (fault) {
    case GoMapFault::kConcurrentWrites:
      return "concurrent map writes";
    case GoMapFault::kReadDuringWrite:
      return "concurrent map read and map write";
    case GoMapFault::kIterationDuringWrite:
      return "concurrent map iteration and map write";
    case GoMapFault::kModifiedDuringIteration:
      return "map modified during iteration (fail-fast iterator)";
  }
  return "map fault";
}

// Lock-free on purpose: a mutex here would order the threads that fault and
// hide their races from ThreadSanitizer. The slot itself is written by one
// thread only (its index is claimed atomically) and read after a join.
__attribute__((no_sanitize("thread"))) void record_go_map_fault(
    GoMapFault fault, const char* where) {
  Faults& log = faults();
  int slot = log.count.fetch_add(1, std::memory_order_relaxed);
  if (slot < Faults::kMaxFaults) log.slots[slot] = {fault, where};
}

std::vector<GoMapFaultRecord> take_go_map_faults() {
  Faults& log = faults();
  const int n = std::min(log.count.load(), Faults::kMaxFaults);
  std::vector<GoMapFaultRecord> out;
  for (int i = 0; i < n; ++i)
    out.push_back({log.slots[i].fault, log.slots[i].where});
  log.count.store(0);
  return out;
}

}  // namespace racelab
