// The state family's sequential model; see state_model.h.
#include "state_model.h"

#include <functional>
#include <set>

#include "absl/strings/str_cat.h"
#include "state_family.h"

namespace racelab::state {

std::size_t MapModel::hash(const State& s) {
  std::size_t h = s.size();
  for (const auto& [k, v] : s) {
    h = h * 1000003u ^ std::hash<std::string>{}(k);
    h = h * 1000003u ^ std::hash<std::string>{}(v);
  }
  return h;
}

bool MapModel::step(const State& s, const Input& in, const Output& out,
                    State* next) {
  switch (in.kind) {
    case StateOp::Kind::kSet:
      *next = s;
      (*next)[in.key] = in.value;
      return true;
    case StateOp::Kind::kGet: {
      auto it = s.find(in.key);
      std::optional<std::string> want;
      if (it != s.end()) want = it->second;
      if (out.value != want) return false;
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
      std::set<std::string> seen;
      for (const auto& [k, v] : out.entries) {
        auto it = s.find(k);
        if (it == s.end() || it->second != v || !seen.insert(k).second)
          return false;
      }
      *next = s;
      return true;
    }
  }
  return false;
}

std::string MapModel::describe(const Input& in, const Output& out) {
  return absl::StrCat(StateFamily::describe(in), " -> ",
                      StateFamily::describe(in, out));
}

std::string MapModel::describe(const Input& in) {
  return StateFamily::describe(in);
}

std::string MapModel::describe(const State& s) {
  constexpr std::size_t kShown = 8;
  std::string out = "{";
  std::size_t n = 0;
  for (const auto& [k, v] : s) {
    if (n++ == kShown) {
      absl::StrAppend(&out, ", ... ", s.size(), " entries in all");
      break;
    }
    absl::StrAppend(&out, n > 1 ? ", " : "", k, "=", v);
  }
  return out + "}";
}

}  // namespace racelab::state
