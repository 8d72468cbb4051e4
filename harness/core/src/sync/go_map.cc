// The fault log of racelab::GoMap.
#include "racelab/go_map.h"

namespace racelab {
namespace {

constexpr int kMaxFaults = 64;
struct Slot {
  GoMapFault fault;
  const char* where;
};
Slot g_faults[kMaxFaults];
std::atomic<int> g_fault_count{0};

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
  int slot = g_fault_count.fetch_add(1, std::memory_order_relaxed);
  if (slot < kMaxFaults) g_faults[slot] = {fault, where};
}

std::vector<GoMapFaultRecord> take_go_map_faults() {
  const int n = std::min(g_fault_count.load(), kMaxFaults);
  std::vector<GoMapFaultRecord> out;
  for (int i = 0; i < n; ++i)
    out.push_back({g_faults[i].fault, g_faults[i].where});
  g_fault_count.store(0);
  return out;
}

}  // namespace racelab
