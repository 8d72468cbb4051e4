// The ring buffer's adapter: execution and text of operations, the model,
// and two scenarios.
#include "ring/ring_family.h"

#include <functional>
#include <map>

#include "racelab/op_text.h"

namespace ring {

using racelab::Finding;
using racelab::History;
using racelab::Program;
using racelab::ProgramSize;
using racelab::Scenario;

std::size_t RingModel::hash(const State& s) {
  std::size_t h = s.size();
  for (int v : s) h = h * 1000003u ^ std::hash<int>{}(v);
  return h;
}

bool RingModel::step(const State& s, const Input& in, const Output& out,
                     State* next) {
  switch (in.kind) {
    case RingOp::Kind::kPush:
      if (out.pushed != (static_cast<int>(s.size()) < kCapacity)) return false;
      *next = s;
      if (out.pushed) next->push_back(in.value);
      return true;
    case RingOp::Kind::kPop:
      if (s.empty()) {
        if (out.popped) return false;
        *next = s;
        return true;
      }
      if (out.popped != s.front()) return false;
      next->assign(s.begin() + 1, s.end());
      return true;
    case RingOp::Kind::kSize:
      if (out.size != static_cast<int>(s.size())) return false;
      *next = s;
      return true;
  }
  return false;
}

std::string RingModel::describe(const Input& in, const Output& out) {
  return RingFamily::describe(in) + " -> " + RingFamily::describe(in, out);
}

std::string RingModel::describe(const State& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += (i ? "," : "") + std::to_string(s[i]);
  }
  return out + "]";
}

RingResult RingFamily::execute(Store& store, const Op& op,
                               racelab::OpContext& /*ctx*/,
                               History<Op, Result>* /*nested*/) {
  Result result;
  switch (op.kind) {
    case Op::Kind::kPush:
      result.pushed = store.push(op.value);
      break;
    case Op::Kind::kPop:
      result.popped = store.pop();
      break;
    case Op::Kind::kSize:
      result.size = store.size();
      break;
  }
  return result;
}

std::string RingFamily::describe(const Op& op) {
  switch (op.kind) {
    case Op::Kind::kPush:
      return "push(" + std::to_string(op.value) + ")";
    case Op::Kind::kPop:
      return "pop()";
    case Op::Kind::kSize:
      return "size()";
  }
  return "?";
}

std::string RingFamily::describe(const Op& op, const Result& result) {
  switch (op.kind) {
    case Op::Kind::kPush:
      return result.pushed ? "true" : "false";
    case Op::Kind::kPop:
      return result.popped ? std::to_string(*result.popped) : "empty";
    case Op::Kind::kSize:
      return std::to_string(result.size);
  }
  return "?";
}

std::optional<RingOp> RingFamily::parse(std::string_view text) {
  std::optional<racelab::OpText> t = racelab::parse_op_text(text);
  if (!t) return std::nullopt;
  if (t->name == "pop" && t->args.empty()) return Op{Op::Kind::kPop, 0};
  if (t->name == "size" && t->args.empty()) return Op{Op::Kind::kSize, 0};
  if (t->name == "push" && t->args.size() == 1) {
    try {
      return Op{Op::Kind::kPush, std::stoi(t->args[0])};
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

namespace {

RingOp push_op(int v) { return {RingOp::Kind::kPush, v}; }
RingOp pop_op() { return {RingOp::Kind::kPop, 0}; }
RingOp size_op() { return {RingOp::Kind::kSize, 0}; }

// Conservation: every item popped was pushed, none twice, and accepted
// pushes = pops that returned an item + what the finale found left.
void check_conservation(const Program<RingOp>& /*program*/,
                        const History<RingOp, RingResult>& history,
                        RingStore& store, std::vector<Finding>& findings) {
  std::map<int, int> accepted, popped;
  for (const auto& e : history) {
    if (e.op.kind == RingOp::Kind::kPush && e.result.pushed)
      ++accepted[e.op.value];
    if (e.op.kind == RingOp::Kind::kPop && e.result.popped)
      ++popped[*e.result.popped];
  }
  while (std::optional<int> v = store.pop()) ++popped[*v];
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

// Two producers race for the last free slot.
Program<RingOp> last_slot(std::uint64_t /*seed*/, ProgramSize size) {
  Program<RingOp> p;
  p.setup = {push_op(100)};
  const int rounds = size == ProgramSize::kFull ? 200 : 1;
  for (int t = 0; t < 2; ++t) {
    std::vector<RingOp> ops;
    for (int i = 0; i < rounds; ++i) {
      ops.push_back(push_op(t * 1000 + i));
      if (size == ProgramSize::kFull) ops.push_back(pop_op());
    }
    p.threads.push_back(ops);
  }
  p.finale = {size_op()};
  return p;
}

// A producer and a consumer, the ring's everyday use.
Program<RingOp> producer_consumer(std::uint64_t /*seed*/, ProgramSize size) {
  Program<RingOp> p;
  const int n = size == ProgramSize::kFull ? 300 : 3;
  std::vector<RingOp> producer, consumer;
  for (int i = 0; i < n; ++i) {
    producer.push_back(push_op(i));
    consumer.push_back(pop_op());
  }
  consumer.push_back(size_op());
  p.threads = {producer, consumer};
  p.finale = {size_op()};
  return p;
}

}  // namespace

std::vector<Scenario<RingFamily>> ring_scenarios() {
  return {
      {"last_slot", "two producers push into the one free slot", last_slot,
       check_conservation},
      {"producer_consumer", "one producer, one consumer", producer_consumer,
       check_conservation},
  };
}

}  // namespace ring
