// Execution and description of checkpoint operations.
#include "checkpoint_family.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/op_text.h"

namespace racelab::checkpoint {
CheckpointResult CheckpointFamily::execute(Store& store, const Op& op,
                                           OpContext& ctx,
                                           History<Op, Result>* /*nested*/) {
  Result result;
  switch (op.kind) {
    case Op::Kind::kCommit:
      result.id = store.commit(op.session, op.payload);
      ctx.carried_id = result.id;
      break;
    case Op::Kind::kLookup:
      result.id = op.id == Op::kLastCommit ? ctx.carried_id
                                           : static_cast<CheckpointId>(op.id);
      result.payload = store.lookup(op.session, result.id);
      break;
    case Op::Kind::kRetrieveIndex: {
      IndexView view = store.retrieve_index(op.session);
      // The caller ranges over the returned view after retrieve_index
      // returned, as the seed's callers ranged over the returned slice.
      std::span<const CheckpointId> ids = view.ids();
      for (CheckpointId id : ids) {
        if (op.pause_each) ctx.pause();
        result.index.push_back(id);
      }
      break;
    }
  }
  return result;
}

std::string CheckpointFamily::describe(const Op& op) {
  switch (op.kind) {
    case Op::Kind::kCommit:
      return absl::StrCat("commit(", op.session, ",", op.payload, ")");
    case Op::Kind::kLookup:
      return absl::StrCat("lookup(", op.session, ",",
                          op.id == Op::kLastCommit ? std::string("last")
                                                   : std::to_string(op.id),
                          ")");
    case Op::Kind::kRetrieveIndex:
      return absl::StrCat("index(", op.session, op.pause_each ? ",pause" : "",
                          ")");
  }
  return "?";
}

std::optional<CheckpointOp> CheckpointFamily::parse(std::string_view text) {
  std::optional<OpText> t = parse_op_text(text);
  if (!t) return std::nullopt;
  const auto& a = t->args;
  if (t->name == "commit" && a.size() == 2) return Op::commit(a[0], a[1]);
  if (t->name == "lookup" && a.size() == 2) {
    if (a[1] == "last") return Op::lookup(a[0], Op::kLastCommit);
    std::int64_t id = 0;
    for (char c : a[1]) {
      if (c < '0' || c > '9' || id > 1'000'000'000) return std::nullopt;
      id = id * 10 + (c - '0');
    }
    return Op::lookup(a[0], id);
  }
  if (t->name == "index" && a.size() == 1) return Op::retrieve_index(a[0]);
  if (t->name == "index" && a.size() == 2 && a[1] == "pause")
    return Op::retrieve_index(a[0], true);
  return std::nullopt;
}

std::string CheckpointFamily::describe(const Op& op, const Result& result) {
  switch (op.kind) {
    case Op::Kind::kCommit:
      return std::to_string(result.id);
    case Op::Kind::kLookup:
      return result.payload ? *result.payload : std::string("not_found");
    case Op::Kind::kRetrieveIndex:
      return absl::StrCat("[", absl::StrJoin(result.index, ","), "]");
  }
  return "?";
}

}  // namespace racelab::checkpoint
