// The gomap oracle.
#include "racelab/internal/go_map_oracle.h"

#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/go_map.h"

namespace racelab {

void collect_go_map_findings(bool enabled, std::vector<Finding>& findings) {
  std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  if (!enabled) return;
  std::set<std::pair<GoMapFault, std::string>> seen;
  for (const GoMapFaultRecord& f : faults) {
    if (!seen.emplace(f.fault, f.where).second) continue;
    const bool iteration = f.fault == GoMapFault::kIterationDuringWrite ||
                           f.fault == GoMapFault::kModifiedDuringIteration;
    findings.push_back({iteration ? FindingKind::kMapIterationDuringWrite
                                  : FindingKind::kConcurrentMapWrite,
                        Oracle::kGomap,
                        absl::StrCat("fatal error: ", go_map_message(f.fault),
                                     " (map '", f.where, "')"),
                        {},
                        std::nullopt,
                        {}});
  }
}

}  // namespace racelab
