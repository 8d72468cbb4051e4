// Execution and description of state operations.
#include "state_family.h"

#include "absl/strings/str_cat.h"
#include "racelab/op_text.h"

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
          Event<Op, Result> event{ctx.thread(),         true, inner, {},
                                  ctx.now(Tick::kCall), 0};
          store.set(inner.key, inner.value);
          event.ret = ctx.now(Tick::kReturn);
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
        absl::StrAppend(&flags, flags.empty() ? "" : ",",
                        "stop=", op.stop_after);
      if (op.write_back)
        absl::StrAppend(&flags, flags.empty() ? "" : ",", "write");
      return absl::StrCat("all(", flags, ")");
    }
  }
  return "?";
}

std::optional<StateOp> StateFamily::parse(std::string_view text) {
  std::optional<OpText> t = parse_op_text(text);
  if (!t) return std::nullopt;
  const auto& a = t->args;
  if (t->name == "set" && a.size() == 2) return Op::set(a[0], a[1]);
  if (t->name == "get" && a.size() == 1) return Op::get(a[0]);
  if (t->name == "erase" && a.size() == 1) return Op::erase(a[0]);
  if (t->name != "all") return std::nullopt;
  Op op = Op::all();
  for (const std::string& flag : a) {
    if (flag == "pause") {
      op.pause_each = true;
    } else if (flag == "write") {
      op.write_back = true;
    } else if (flag.starts_with("stop=") && flag.size() > 5 &&
               flag.size() < 10) {
      int n = 0;
      for (char c : flag.substr(5)) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + (c - '0');
      }
      if (n == 0) return std::nullopt;
      op.stop_after = n;
    } else {
      return std::nullopt;
    }
  }
  return op;
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
          absl::StrAppend(&out, ",... ", result.entries.size(),
                          " entries in all");
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
