// A tiny family for the kit's own tests: a tally with add(n) and get(). Two
// stores: one that locks a std::mutex around every operation (clean), and one
// that reads, pauses and writes back without a lock (a lost update: a data
// race for TSan and a result no sequential order explains). Its scenarios
// have no invariants unless a test gives them.
#ifndef RACELAB_TESTS_KIT_TALLY_FAMILY_H_
#define RACELAB_TESTS_KIT_TALLY_FAMILY_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/family.h"
#include "racelab/internal/op_text.h"

namespace racelab::tally {

class Tally {
 public:
  virtual ~Tally() = default;
  virtual void add(int n, OpContext& ctx) = 0;
  virtual int get() = 0;
};

class LockedTally final : public Tally {
 public:
  // `pause_in_lock`: add pauses (ctx.pause(), a scheduling point in
  // controlled mode) with the std::mutex held, so the others wait for it.
  explicit LockedTally(bool pause_in_lock = false)
      : pause_in_lock_(pause_in_lock) {}
  void add(int n, OpContext& ctx) override {
    std::lock_guard<std::mutex> lock(mu_);
    const int v = value_;
    if (pause_in_lock_) ctx.pause();
    value_ = v + n;
  }
  int get() override {
    std::lock_guard<std::mutex> lock(mu_);
    return value_;
  }

 private:
  const bool pause_in_lock_;
  std::mutex mu_;
  int value_ = 0;
};

class RacyTally final : public Tally {
 public:
  __attribute__((noinline)) void add(int n, OpContext& ctx) override {
    const int v = value_;
    ctx.pause();
    value_ = v + n;
  }
  __attribute__((noinline)) int get() override { return value_; }

 private:
  int value_ = 0;
};

struct TallyOp {
  bool add = true;
  int n = 1;
};

struct TallyResult {
  int value = 0;  // get
};

struct TallyModel {
  using State = int;
  using Input = TallyOp;
  using Output = TallyResult;
  static std::size_t hash(const State& s) { return static_cast<size_t>(s); }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    if (in.add) {
      *next = s + in.n;
      return true;
    }
    *next = s;
    return out.value == s;
  }
  static std::string describe(const Input& in, const Output& out) {
    return in.add ? "add(" + std::to_string(in.n) + ")"
                  : "get() -> " + std::to_string(out.value);
  }
  static std::string describe(const State& s) { return std::to_string(s); }
};

// The family over any model of the tally (a template, as a family of
// several models would be).
template <class Model>
struct BasicTallyFamily : LinearizableBy<Model> {
  using Store = Tally;
  using Op = TallyOp;
  using Result = TallyResult;
  static constexpr const char* kName = "tally";

  static Result execute(Store& store, const Op& op, OpContext& ctx,
                        History<Op, Result>* /*nested*/) {
    if (op.add) {
      store.add(op.n, ctx);
      return {};
    }
    return {store.get()};
  }
  static std::string describe(const Op& op) {
    return op.add ? "add(" + std::to_string(op.n) + ")" : "get()";
  }
  static std::string describe(const Op& op, const Result& result) {
    return op.add ? "ok" : std::to_string(result.value);
  }
  static std::optional<Op> parse(std::string_view text) {
    std::optional<OpText> t = parse_op_text(text);
    if (!t) return std::nullopt;
    if (t->name == "get" && t->args.empty()) return Op{false, 0};
    if (t->name == "add" && t->args.size() == 1) {
      return Op{true, std::stoi(t->args[0])};
    }
    return std::nullopt;
  }
};
using TallyFamily = BasicTallyFamily<TallyModel>;
static_assert(Family<TallyFamily>);

inline std::unique_ptr<Tally> make_locked() {
  return std::make_unique<LockedTally>();
}
inline std::unique_ptr<Tally> make_pausing_locked() {
  return std::make_unique<LockedTally>(/*pause_in_lock=*/true);
}
inline std::unique_ptr<Tally> make_racy() {
  return std::make_unique<RacyTally>();
}

// Two threads add once each; the finale reads the total. No invariants.
template <class F = TallyFamily>
Scenario<F> two_adds() {
  Scenario<F> s;
  s.name = "two_adds";
  s.description = "two threads add 1; the finale reads the total";
  s.program = [](std::uint64_t, ProgramSize) {
    Program<TallyOp> p;
    p.threads = {{TallyOp{true, 1}}, {TallyOp{true, 1}}};
    p.finale = {TallyOp{false, 0}};
    return p;
  };
  s.seeded = false;  // one program: a dfs search of it can be exhaustive
  return s;
}

}  // namespace racelab::tally

#endif  // RACELAB_TESTS_KIT_TALLY_FAMILY_H_
