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

namespace {

// Whether `in` may return `out` in session state `s`.
bool returns(const CheckpointFamilyModel::State& s, const CheckpointOp& in,
             const CheckpointResult& out) {
  switch (in.kind) {
    case CheckpointOp::Kind::kCommit:
      return out.id == s.size();
    case CheckpointOp::Kind::kLookup:
      if (out.id < s.size()) return out.payload == s[out.id];
      return !out.payload.has_value();
    case CheckpointOp::Kind::kRetrieveIndex:
      if (out.index.size() != s.size()) return false;
      for (std::size_t i = 0; i < out.index.size(); ++i) {
        if (out.index[i] != i) return false;
      }
      return true;
  }
  return false;
}

// What `in` does to the session: a commit appends its payload.
void apply(CheckpointFamilyModel::State& s, const CheckpointOp& in) {
  if (in.kind == CheckpointOp::Kind::kCommit) s.push_back(in.payload);
}

}  // namespace

bool CheckpointFamilyModel::step(const State& s, const Input& in,
                                 const Output& out, State* next) {
  if (!returns(s, in, out)) return false;
  *next = s;
  apply(*next, in);
  return true;
}

std::size_t CheckpointFamilyModel::fitting_prefix(
    const State& initial,
    std::span<const Operation<CheckpointFamilyModel>> history,
    std::span<const std::size_t> order) {
  State state = initial;
  std::size_t fitted = 0;
  for (std::size_t op : order) {
    if (!returns(state, history[op].input, history[op].output)) break;
    apply(state, history[op].input);
    ++fitted;
  }
  return fitted;
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
