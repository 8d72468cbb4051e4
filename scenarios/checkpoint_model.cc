// The checkpoint family's sequential model; see checkpoint_model.h.
#include "checkpoint_model.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checkpoint_family.h"

namespace racelab::checkpoint {

std::size_t CheckpointFamilyModel::hash(const State& s) {
  std::size_t h = s.size();
  for (const std::string& p : s) h = h * 1000003u ^ std::hash<std::string>{}(p);
  return h;
}

bool CheckpointFamilyModel::step(const State& s, const Input& in,
                                 const Output& out, State* next) {
  switch (in.kind) {
    case CheckpointOp::Kind::kCommit:
      if (out.id != s.size()) return false;
      *next = s;
      next->push_back(in.payload);
      return true;
    case CheckpointOp::Kind::kLookup: {
      std::optional<std::string> want;
      if (out.id < s.size()) want = s[out.id];
      if (out.payload != want) return false;
      *next = s;
      return true;
    }
    case CheckpointOp::Kind::kRetrieveIndex:
      if (out.index.size() != s.size()) return false;
      for (std::size_t i = 0; i < out.index.size(); ++i) {
        if (out.index[i] != i) return false;
      }
      *next = s;
      return true;
  }
  return false;
}

std::string CheckpointFamilyModel::describe(const Input& in,
                                            const Output& out) {
  return absl::StrCat(CheckpointFamily::describe(in), " -> ",
                      CheckpointFamily::describe(in, out));
}

std::string CheckpointFamilyModel::describe(const State& s) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < s.size(); ++i)
    items.push_back(absl::StrCat(i, "=", s[i]));
  return absl::StrCat("{", absl::StrJoin(items, ", "), "}");
}

}  // namespace racelab::checkpoint
