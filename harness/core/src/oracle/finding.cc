// Names of finding kinds and modes.
#include "racelab/finding.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "racelab/case.h"

namespace racelab {
namespace {

constexpr std::array<std::pair<FindingKind, const char*>, 8> kNames = {{
    {FindingKind::kDataRace, "data_race"},
    {FindingKind::kUseAfterFree, "use_after_free"},
    {FindingKind::kNotLinearizable, "not_linearizable"},
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

std::string format_oracles(const Oracles& o) {
  std::string out;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!out.empty()) out += ",";
    out += name;
  };
  add(o.tsan, "tsan");
  add(o.invariants, "invariants");
  add(o.linearizability, "linearizability");
  add(o.gomap, "gomap");
  return out.empty() ? "none" : out;
}

Oracles parse_oracles(const std::string& list) {
  if (list == "all") return Oracles{};
  Oracles o{false, false, false, false};
  if (list == "none") return o;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(start, end - start);
    if (name == "tsan")
      o.tsan = true;
    else if (name == "invariants")
      o.invariants = true;
    else if (name == "linearizability")
      o.linearizability = true;
    else if (name == "gomap")
      o.gomap = true;
    else
      throw std::invalid_argument(
          "unknown oracle '" + name +
          "' (known: tsan, invariants, linearizability, gomap, all, none)");
    start = end + 1;
  }
  return o;
}

const char* to_string(Mode mode) {
  return mode == Mode::kStress ? "stress" : "controlled";
}

}  // namespace racelab
