// The oracles' name table and the text form of a set of them.
#include "racelab/oracle.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace racelab {
namespace {

struct OracleName {
  Oracle oracle;
  const char* name;
  bool selectable;
};

constexpr std::array<OracleName, kOracleCount> kNames = {{
    {Oracle::kTsan, "tsan", true},
    {Oracle::kAsan, "asan", false},
    {Oracle::kInvariants, "invariants", true},
    {Oracle::kLinearizability, "linearizability", true},
    {Oracle::kGomap, "gomap", true},
    {Oracle::kDeadlock, "deadlock", false},
    {Oracle::kCrash, "crash", false},
    {Oracle::kTimeout, "timeout", false},
}};

static_assert(
    [] {
      for (int i = 0; i < kOracleCount; ++i) {
        if (static_cast<int>(kNames[i].oracle) != i) return false;
      }
      return true;
    }(),
    "kNames lists the oracles in enum order");

std::string selectable_names() {
  std::vector<const char*> names;
  for (const OracleName& n : kNames) {
    if (n.selectable) names.push_back(n.name);
  }
  return absl::StrCat(absl::StrJoin(names, ", "), ", all, none");
}

}  // namespace

const char* to_string(Oracle oracle) {
  const int i = static_cast<int>(oracle);
  return i >= 0 && i < kOracleCount ? kNames[i].name : "unknown";
}

std::optional<Oracle> parse_oracle(std::string_view name) {
  for (const OracleName& n : kNames) {
    if (name == n.name) return n.oracle;
  }
  if (name == "invariant") return Oracle::kInvariants;
  return std::nullopt;
}

const std::vector<Oracle>& all_oracles() {
  static const auto* oracles = [] {
    auto* v = new std::vector<Oracle>;
    for (const OracleName& n : kNames) v->push_back(n.oracle);
    return v;
  }();
  return *oracles;
}

bool is_selectable(Oracle oracle) {
  const int i = static_cast<int>(oracle);
  return i >= 0 && i < kOracleCount && kNames[i].selectable;
}

std::vector<Oracle> OracleSet::members() const {
  return std::vector<Oracle>(begin(), end());
}

std::string to_string(OracleSet oracles) {
  if (oracles.empty()) return "none";
  return absl::StrJoin(oracles, ",", [](std::string* out, Oracle o) {
    absl::StrAppend(out, to_string(o));
  });
}

OracleSet parse_oracle_set(std::string_view list) {
  if (list == "all") return OracleSet::selectable();
  OracleSet set;
  if (list == "none") return set;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    const std::string name(word);
    std::optional<Oracle> oracle = parse_oracle(name);
    if (!oracle || name != to_string(*oracle)) {
      throw std::invalid_argument(absl::StrCat(
          "unknown oracle '", name, "' (known: ", selectable_names(), ")"));
    }
    if (!is_selectable(*oracle)) {
      throw std::invalid_argument(absl::StrCat(
          "oracle '", name, "' is always on and cannot be selected (known: ",
          selectable_names(), ")"));
    }
    set.insert(*oracle);
  }
  return set;
}

}  // namespace racelab
