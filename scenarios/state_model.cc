// The state family's sequential model; see state_model.h.
#include "state_model.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "state_family.h"

namespace racelab::state {

std::size_t StateFamilyModel::hash(const State& s) { return s.hash(); }

namespace {

// Whether no key occurs twice among `entries` (an iteration yields each key
// once). Without allocating for the short lists the programs make.
bool distinct_keys(
    const std::vector<std::pair<std::string, std::string>>& entries) {
  constexpr std::size_t kShort = 16;
  if (entries.size() <= kShort) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (entries[i].first == entries[j].first) return false;
      }
    }
    return true;
  }
  std::set<std::string_view> seen;
  for (const auto& entry : entries) {
    if (!seen.insert(entry.first).second) return false;
  }
  return true;
}

}  // namespace

bool StateFamilyModel::step(const State& s, const Input& in, const Output& out,
                            State* next) {
  switch (in.kind) {
    case StateOp::Kind::kSet:
      *next = s;
      next->set(in.key, in.value);
      return true;
    case StateOp::Kind::kGet: {
      const std::string* found = s.find(in.key);
      if (out.value.has_value() != (found != nullptr)) return false;
      if (found != nullptr && *out.value != *found) return false;
      *next = s;
      return true;
    }
    case StateOp::Kind::kErase:
      if (out.erased != s.contains(in.key)) return false;
      *next = s;
      next->erase(in.key);
      return true;
    case StateOp::Kind::kAll: {
      const std::size_t want_size =
          in.stop_after == 0 ? s.size()
                             : std::min<std::size_t>(in.stop_after, s.size());
      if (out.entries.size() != want_size) return false;
      for (const auto& [k, v] : out.entries) {
        const std::string* found = s.find(k);
        if (found == nullptr || *found != v) return false;
      }
      if (!distinct_keys(out.entries)) return false;
      *next = s;
      return true;
    }
  }
  return false;
}

std::string StateFamilyModel::describe(const Input& in, const Output& out) {
  return absl::StrCat(StateFamily::describe(in), " -> ",
                      StateFamily::describe(in, out));
}

std::string StateFamilyModel::describe(const Input& in) {
  return StateFamily::describe(in);
}

std::string StateFamilyModel::describe(const State& s) {
  constexpr std::size_t kShown = 8;
  std::string out = "{";
  std::size_t n = 0;
  s.for_each([&](const std::string& k, const std::string& v) {
    if (n++ == kShown) {
      absl::StrAppend(&out, ", ... ", s.size(), " entries in all");
      return false;
    }
    absl::StrAppend(&out, n > 1 ? ", " : "", k, "=", v);
    return true;
  });
  return out + "}";
}

}  // namespace racelab::state
