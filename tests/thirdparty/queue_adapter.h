// What the third-party queue tests share: a queue's operations as data
// (push / pop of ints), their text, two sequential models (a bounded FIFO and
// an unordered pool) and the conservation invariant. Each test adapts its
// library queue with a family of a few lines on top of this.
#ifndef TESTS_THIRDPARTY_QUEUE_ADAPTER_H_
#define TESTS_THIRDPARTY_QUEUE_ADAPTER_H_

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"
#include "racelab/internal/history.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/scenario.h"

namespace thirdparty {

struct QueueOp {
  enum class Kind { kPush, kPop };
  Kind kind = Kind::kPush;
  int value = 0;  // push
};

struct QueueResult {
  bool pushed = false;        // push
  std::optional<int> popped;  // pop
};

inline QueueOp push_op(int v) { return {QueueOp::Kind::kPush, v}; }
inline QueueOp pop_op() { return {QueueOp::Kind::kPop, 0}; }

inline std::string describe_op(const QueueOp& op) {
  return op.kind == QueueOp::Kind::kPush
             ? "push(" + std::to_string(op.value) + ")"
             : "pop()";
}

inline std::string describe_result(const QueueOp& op, const QueueResult& r) {
  if (op.kind == QueueOp::Kind::kPush) return r.pushed ? "true" : "false";
  return r.popped ? std::to_string(*r.popped) : "empty";
}

inline std::optional<QueueOp> parse_op(std::string_view text) {
  std::optional<racelab::OpText> t = racelab::parse_op_text(text);
  if (!t) return std::nullopt;
  if (t->name == "pop" && t->args.empty()) return pop_op();
  if (t->name == "push" && t->args.size() == 1) {
    try {
      return push_op(std::stoi(t->args[0]));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

inline std::string describe_items(const std::vector<int>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i ? "," : "") + std::to_string(items[i]);
  }
  return out + "]";
}

inline std::size_t hash_items(const std::vector<int>& items) {
  std::size_t h = items.size();
  for (int v : items) h = h * 1000003u ^ std::hash<int>{}(v);
  return h;
}

// A FIFO queue of at most Capacity items: push refuses exactly when full,
// pop returns the oldest item, or empty exactly when there is none.
template <int Capacity>
struct BoundedFifoModel {
  using State = std::vector<int>;  // oldest first
  using Input = QueueOp;
  using Output = QueueResult;
  static constexpr const char* kObjectName = "queue";

  static std::size_t hash(const State& s) { return hash_items(s); }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    *next = s;
    if (in.kind == QueueOp::Kind::kPush) {
      if (out.pushed != (static_cast<int>(s.size()) < Capacity)) return false;
      if (out.pushed) next->push_back(in.value);
      return true;
    }
    if (s.empty()) return !out.popped;
    if (out.popped != s.front()) return false;
    next->erase(next->begin());
    return true;
  }
  static std::string describe(const Input& in, const Output& out) {
    return describe_op(in) + " -> " + describe_result(in, out);
  }
  static std::string describe(const State& s) { return describe_items(s); }
};

// An unbounded pool: push always succeeds; pop returns an item that is in
// the pool (any of them), or empty at any time. That is all a queue that
// promises neither a global order nor that a pop sees every producer's items
// at once (moodycamel::ConcurrentQueue) guarantees; the conservation
// invariant checks, once the queue is quiescent, that nothing was lost.
struct PoolModel {
  using State = std::vector<int>;  // sorted
  using Input = QueueOp;
  using Output = QueueResult;
  static constexpr const char* kObjectName = "pool";

  static std::size_t hash(const State& s) { return hash_items(s); }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    *next = s;
    if (in.kind == QueueOp::Kind::kPush) {
      if (!out.pushed) return false;
      next->insert(std::upper_bound(next->begin(), next->end(), in.value),
                   in.value);
      return true;
    }
    if (!out.popped) return true;
    auto it = std::lower_bound(next->begin(), next->end(), *out.popped);
    if (it == next->end() || *it != *out.popped) return false;
    next->erase(it);
    return true;
  }
  static std::string describe(const Input& in, const Output& out) {
    return describe_op(in) + " -> " + describe_result(in, out);
  }
  static std::string describe(const State& s) { return describe_items(s); }
};

// Conservation, once every thread has finished: `drain` pops what is left;
// every accepted push was popped exactly once, and nothing else was.
template <class Store>
void check_conservation(const racelab::History<QueueOp, QueueResult>& history,
                        Store& store,
                        const std::function<std::optional<int>(Store&)>& drain,
                        std::vector<racelab::Finding>& findings) {
  std::map<int, int> accepted, popped;
  for (const auto& e : history) {
    if (e.op.kind == QueueOp::Kind::kPush && e.result.pushed) {
      ++accepted[e.op.value];
    }
    if (e.op.kind == QueueOp::Kind::kPop && e.result.popped) {
      ++popped[*e.result.popped];
    }
  }
  while (std::optional<int> v = drain(store)) ++popped[*v];
  for (const auto& [value, n] : accepted) {
    if (popped[value] < n) {
      findings.push_back(racelab::invariant_violation(
          "push(" + std::to_string(value) +
          ") was accepted but the item was never popped: it was lost"));
    }
  }
  for (const auto& [value, n] : popped) {
    if (accepted[value] < n) {
      findings.push_back(racelab::invariant_violation(
          "pop() returned " + std::to_string(value) +
          " more often than it was pushed"));
    }
  }
}

}  // namespace thirdparty

#endif  // TESTS_THIRDPARTY_QUEUE_ADAPTER_H_
