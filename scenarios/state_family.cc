// Execution and description of state operations.
#include "state_family.h"

#include "absl/strings/str_cat.h"

namespace racelab::state {

StateResult StateFamily::execute(Store& store, const Op& op, OpContext& ctx,
                                 History<Op, Result>* nested) {
  Result result;
  switch (op.kind) {
    case Op::Kind::kSet:
      store.set(op.key, op.value);
      break;
    case Op::Kind::kGet:
      result.value = store.get(op.key);
      break;
    case Op::Kind::kErase:
      result.erased = store.erase(op.key);
      break;
    case Op::Kind::kAll:
      store.all([&](const std::string& key, const std::string& value) {
        // Reads through the references the store handed out.
        result.entries.emplace_back(key, value);
        if (op.write_back && !key.ends_with('\'')) {
          Op inner = Op::set(key + "'", value);
          Event<Op, Result> event{ctx.thread(), true, inner, {}, ctx.now(), 0};
          store.set(inner.key, inner.value);
          event.ret = ctx.now();
          if (nested != nullptr) nested->push_back(std::move(event));
        }
        if (op.pause_each) ctx.pause();
        return op.stop_after == 0 ||
               static_cast<int>(result.entries.size()) < op.stop_after;
      });
      break;
  }
  return result;
}

std::string StateFamily::describe(const Op& op) {
  switch (op.kind) {
    case Op::Kind::kSet:
      return absl::StrCat("set(", op.key, ",", op.value, ")");
    case Op::Kind::kGet:
      return absl::StrCat("get(", op.key, ")");
    case Op::Kind::kErase:
      return absl::StrCat("erase(", op.key, ")");
    case Op::Kind::kAll: {
      std::string flags;
      if (op.pause_each) absl::StrAppend(&flags, "pause");
      if (op.stop_after > 0)
        absl::StrAppend(&flags, flags.empty() ? "" : ",", "stop=", op.stop_after);
      if (op.write_back) absl::StrAppend(&flags, flags.empty() ? "" : ",", "write");
      return absl::StrCat("all(", flags, ")");
    }
  }
  return "?";
}

std::string StateFamily::describe(const Op& op, const Result& result) {
  switch (op.kind) {
    case Op::Kind::kSet:
      return "ok";
    case Op::Kind::kGet:
      return result.value ? *result.value : std::string("none");
    case Op::Kind::kErase:
      return result.erased ? "true" : "false";
    case Op::Kind::kAll: {
      constexpr size_t kShown = 8;
      std::string out = "{";
      for (size_t i = 0; i < result.entries.size(); ++i) {
        if (i == kShown) {
          absl::StrAppend(&out, ",... ", result.entries.size(), " entries in all");
          break;
        }
        absl::StrAppend(&out, i ? "," : "", result.entries[i].first, "=",
                        result.entries[i].second);
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace racelab::state
