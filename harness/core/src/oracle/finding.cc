// Names of finding kinds and modes.
#include "racelab/finding.h"

#include <array>
#include <utility>

#include "racelab/internal/case.h"

namespace racelab {
namespace {

constexpr std::array<std::pair<FindingKind, const char*>, 9> kNames = {{
    {FindingKind::kDataRace, "data_race"},
    {FindingKind::kUseAfterFree, "use_after_free"},
    {FindingKind::kNotLinearizable, "not_linearizable"},
    {FindingKind::kInvariantViolation, "invariant_violation"},
    {FindingKind::kDeadlock, "deadlock"},
    {FindingKind::kConcurrentMapWrite, "concurrent_map_write"},
    {FindingKind::kMapIterationDuringWrite, "map_iteration_during_write"},
    {FindingKind::kCrash, "crash"},
    {FindingKind::kTimeout, "timeout"},
}};

}  // namespace

const char* to_string(FindingKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<FindingKind> parse_finding_kind(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (name == n) return k;
  }
  return std::nullopt;
}

const std::vector<FindingKind>& all_finding_kinds() {
  static const auto* kinds = [] {
    auto* v = new std::vector<FindingKind>;
    for (const auto& [k, name] : kNames) v->push_back(k);
    return v;
  }();
  return *kinds;
}

Finding invariant_violation(std::string summary) {
  return Finding{FindingKind::kInvariantViolation,
                 Oracle::kInvariants,
                 std::move(summary),
                 {},
                 std::nullopt,
                 {}};
}

const char* to_string(Mode mode) {
  return mode == Mode::kStress ? "stress" : "controlled";
}

}  // namespace racelab
