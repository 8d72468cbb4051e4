// The declared front door (racelab/spec.h): operations declared from member
// functions, the default sequential specification (the store's own class),
// a reference model, spurious failures, bags, partitions, invariants,
// hand-written programs, and the errors a wrong declaration gets.
#include "racelab/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "racelab/gtest.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/sched/trace.h"

namespace {

using racelab::call;
using racelab::CheckOptions;
using racelab::CheckResult;
using racelab::FindingKind;
using racelab::Mode;
using racelab::Plan;
using racelab::ProgramSize;

// A bounded FIFO of two ints behind one std::mutex.
class Ring {
 public:
  virtual ~Ring() = default;
  virtual bool push(int v) {
    std::lock_guard<std::mutex> lock(mu_);
    if (items_.size() == kCapacity) return false;
    items_.push_back(v);
    return true;
  }
  std::optional<int> pop() {
    std::lock_guard<std::mutex> lock(mu_);
    if (items_.empty()) return std::nullopt;
    int v = items_.front();
    items_.pop_front();
    return v;
  }
  int size() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(items_.size());
  }

 protected:
  static constexpr std::size_t kCapacity = 2;
  std::mutex mu_;
  std::deque<int> items_;
};

// BUG: checks for room and stores under two separate locks.
class SplitRing : public Ring {
 public:
  bool push(int v) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (items_.size() == kCapacity) return false;
    }
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(v);
    return true;
  }
};

racelab::Spec<Ring> ring_spec() {
  return racelab::Spec<Ring>("ring")
      .op("push", &Ring::push, racelab::ints(0, 9))
      .op("pop", &Ring::pop)
      .op("size", &Ring::size)
      .scenario("last_slot", Plan{{call("push", 100)},
                                  {{call("push", 1)}, {call("push", 2)}},
                                  {call("size")}});
}

CheckOptions controlled() {
  CheckOptions options;
  options.budget = 200;
  return options;
}

TEST(SpecShow, ValuesAndArguments) {
  EXPECT_EQ(racelab::show(std::optional<int>()), "none");
  EXPECT_EQ(racelab::show(std::optional<int>(3)), "3");
  EXPECT_EQ(racelab::show(std::vector<int>{1, 2}), "[1,2]");
  EXPECT_EQ(racelab::show(std::map<std::string, int>{{"a", 1}}), "{a=1}");
  EXPECT_EQ(racelab::show(std::make_pair(1, std::string("x"))), "(1,x)");
  EXPECT_EQ(racelab::show(racelab::Done{}), "ok");
  for (std::string text : {"plain", "a b,c", "(x);%", ""}) {
    const std::string shown = racelab::show_argument(text);
    EXPECT_TRUE(racelab::is_plain_argument(shown)) << shown;
    EXPECT_EQ(racelab::parse_argument<std::string>(shown), text);
  }
  EXPECT_EQ(racelab::parse_argument<int>("-12"), -12);
  EXPECT_EQ(racelab::parse_argument<int>("12x"), std::nullopt);
}

enum class Color { kRed, kBlue };
std::string to_string(Color c) { return c == Color::kRed ? "red" : "blue"; }

struct Point {
  int x = 0;
  int y = 0;
  bool operator==(const Point&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Point& p) {
  return os << p.x << ":" << p.y;
}

// A store whose arguments and results are an enum and a user type.
class Palette {
 public:
  Point paint(Color c, Point p) {
    std::lock_guard<std::mutex> lock(mu_);
    last_[c] = p;
    return p;
  }
  std::optional<Point> last(Color c) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = last_.find(c);
    if (it == last_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::mutex mu_;
  std::map<Color, Point> last_;
};

TEST(Spec, EnumsAndUserTypesReadAndReadBack) {
  auto spec = racelab::Spec<Palette>("palette")
                  .op("paint", &Palette::paint,
                      racelab::values(Color::kRed, Color::kBlue),
                      racelab::values(Point{1, 2}, Point{3, 4}))
                  .op("last", &Palette::last,
                      racelab::values(Color::kRed, Color::kBlue));
  const racelab::SpecRef core = spec;
  // Shown with to_string / operator<<, read back through the generator.
  auto check = racelab::spec_program_line_checker(core);
  EXPECT_EQ(check("paint(red,1:2); last(blue)"), "");
  EXPECT_EQ(check("paint(green,1:2)"),
            "'paint(green,1:2)' is not a palette operation");
  CheckResult result = spec.check("random", controlled());
  EXPECT_TRUE(result.clean()) << result.message;
  EXPECT_EQ(racelab::show(std::optional<Point>(Point{3, 4})), "3:4");
  EXPECT_EQ(racelab::show(Color::kBlue), "blue");
}

TEST(Spec, CorrectStoreIsCleanInBothModes) {
  for (Mode mode : {Mode::kControlled, Mode::kStress}) {
    CheckOptions options = controlled();
    options.mode = mode;
    for (const char* scenario : {"random", "last_slot"}) {
      CheckResult result = ring_spec().check(scenario, options);
      EXPECT_TRUE(result.clean()) << result.message;
    }
  }
}

TEST(Spec, CheckThenActIsCaughtByTheStoresOwnClassAsModelAndReplays) {
  const racelab::SpecRef split =
      ring_spec().make([] { return std::make_unique<SplitRing>(); });
  CheckResult result = racelab::check_spec(split, "last_slot", controlled());
  ASSERT_FALSE(result.clean());
  EXPECT_TRUE(result.has(FindingKind::kNotLinearizable)) << result.message;
  EXPECT_NE(result.message.find("push(2)"), std::string::npos)
      << result.message;
  ASSERT_FALSE(result.schedule_file.empty());
  // A spec's schedule replays through replay_spec, and the message says so.
  EXPECT_NE(result.message.find("rerun it with racelab::replay_spec"),
            std::string::npos)
      << result.message;
  EXPECT_EQ(result.message.find("replay_store"), std::string::npos)
      << result.message;

  CheckResult again = racelab::replay_spec(split, "last_slot",
                                           result.schedule_file, controlled());
  EXPECT_TRUE(again.has(FindingKind::kNotLinearizable)) << again.message;
  EXPECT_FALSE(again.replay_diverged);
  CheckResult fixed = racelab::replay_spec(ring_spec(), "last_slot",
                                           result.schedule_file, controlled());
  EXPECT_TRUE(fixed.clean()) << fixed.message;
}

TEST(Spec, RandomProgramsFindTheBugToo) {
  CheckOptions options = controlled();
  options.budget = 300;
  CheckResult result = ring_spec()
                           .make([] { return std::make_unique<SplitRing>(); })
                           .operations(3, 50)
                           .check("random", options);
  EXPECT_TRUE(result.has(FindingKind::kNotLinearizable)) << result.message;
}

// A known-buggy store whose bug one scenario reaches and another cannot.
racelab::Spec<Ring> split_ring_reached_by_one_scenario() {
  return ring_spec()
      .named("ring/split")
      .make([] { return std::make_unique<SplitRing>(); })
      .without_random_scenario()
      .scenario("one_thread", Plan{{}, {{call("push", 1), call("size")}}, {}})
      .options(controlled());
}

// Caught is the spec's verdict: one test, passing because last_slot catches
// the bug although one_thread cannot.
RACELAB_SPEC_EXPECT_CAUGHT(SplitRingCaughtByOneScenario,
                           split_ring_reached_by_one_scenario());

TEST(Spec, CaughtMeansCaughtByAtLeastOneScenario) {
  const CheckResult result =
      racelab::check_spec_caught(split_ring_reached_by_one_scenario());
  EXPECT_FALSE(result.clean()) << result.message;
  EXPECT_TRUE(result.has(FindingKind::kNotLinearizable)) << result.message;
  EXPECT_EQ(result.message.rfind("ring/split: caught by 1 of 2 scenarios "
                                 "(last_slot); not by one_thread\n",
                                 0),
            0u)
      << result.message;
  const CheckResult none = racelab::check_spec_caught(
      ring_spec().without_random_scenario().options(controlled()));
  EXPECT_TRUE(none.clean()) << none.message;
  EXPECT_EQ(
      none.message.rfind("ring: no scenario caught the bug (last_slot)", 0), 0u)
      << none.message;
}

// A counter behind two locks, taken a then b by both operations.
class TwoLocks {
 public:
  virtual ~TwoLocks() = default;
  int forward() {
    std::lock_guard<std::mutex> first(a_);
    std::lock_guard<std::mutex> second(b_);
    return ++count_;
  }
  virtual int backward() {
    std::lock_guard<std::mutex> first(a_);
    std::lock_guard<std::mutex> second(b_);
    return ++count_;
  }

 protected:
  std::mutex a_;
  std::mutex b_;
  int count_ = 0;
};

// The same counter with backward() taking b then a: a lock-order inversion
// whenever both operations run.
class InvertedTwoLocks : public TwoLocks {
 public:
  int backward() override {
    std::lock_guard<std::mutex> first(b_);
    std::lock_guard<std::mutex> second(a_);
    return ++count_;
  }
};

// The model replays its class's code after the run, on the checking thread;
// what TSan reports of that replay (here the model's lock-order inversion)
// is no finding of the store's run.
TEST(Spec, TheModelsReplayIsNoFindingOfTheStoresRun) {
  CheckOptions options = controlled();
  options.budget = 20;
  const CheckResult result =
      racelab::Spec<TwoLocks>("two_locks")
          .op("forward", &TwoLocks::forward)
          .op("backward", &TwoLocks::backward)
          .model([] { return std::make_unique<InvertedTwoLocks>(); })
          .without_random_scenario()
          .scenario("both",
                    Plan{{}, {{call("forward")}, {call("backward")}}, {}})
          .check("both", options);
  EXPECT_TRUE(result.clean()) << result.message;
}

// The random scenario's setup and finale calls are the spec's to set; with
// none, the threads make the store's first calls (a lazy store's set-up).
TEST(Spec, SetupAndFinaleCallsAreConfigurable) {
  for (int setup : {0, 2}) {
    CheckOptions options = controlled();
    options.budget = 20;
    CheckResult result =
        ring_spec()
            .setup_calls(setup)
            .finale_calls(0)
            .invariant("setup calls",
                       [setup](const racelab::Calls& calls) -> std::string {
                         const auto n = std::count_if(
                             calls.begin(), calls.end(), [](const auto& c) {
                               return c.thread() == racelab::kSetupThread;
                             });
                         if (n == setup) return "";
                         return std::to_string(n) + " setup calls";
                       })
            .check("random", options);
    EXPECT_TRUE(result.clean()) << result.message;
  }
}

// A reference model of another class: operations as generic lambdas.
struct RefRing {
  std::deque<int> items;
  bool push(int v) {
    if (items.size() == 2) return false;
    items.push_back(v);
    return true;
  }
  std::optional<int> pop() {
    if (items.empty()) return std::nullopt;
    int v = items.front();
    items.pop_front();
    return v;
  }
  int size() const { return static_cast<int>(items.size()); }
  bool operator==(const RefRing&) const = default;
};
std::string to_string(const RefRing& r) { return racelab::show(r.items); }

template <class Store>
racelab::Spec<Store, RefRing> against_reference() {
  return racelab::Spec<Store, RefRing>("ring")
      .op(
          "push", [](auto& r, int v) { return r.push(v); }, racelab::ints(0, 9))
      .op("pop", [](auto& r) { return r.pop(); })
      .op("size", [](auto& r) { return r.size(); })
      .scenario("last_slot", Plan{{call("push", 100)},
                                  {{call("push", 1)}, {call("push", 2)}},
                                  {call("size")}});
}

TEST(Spec, ReferenceModelOfAnotherClass) {
  CheckResult clean =
      against_reference<Ring>().check("last_slot", controlled());
  EXPECT_TRUE(clean.clean()) << clean.message;
  CheckResult caught =
      against_reference<SplitRing>().check("last_slot", controlled());
  EXPECT_TRUE(caught.has(FindingKind::kNotLinearizable)) << caught.message;
  // The copyable model shows its states in the explanation.
  EXPECT_NE(caught.message.find("[100,"), std::string::npos) << caught.message;
}

// A model with a hash of its own: the search hashes every state it reaches
// with it, and shows none of them to hash the text.
int g_model_hashes = 0;
int g_model_shows = 0;
struct HashedRing : RefRing {
  std::size_t hash() const {
    ++g_model_hashes;
    return items.size();
  }
  bool operator==(const HashedRing&) const = default;
};
std::string to_string(const HashedRing& r) {
  ++g_model_shows;
  return racelab::show(r.items);
}

TEST(Spec, AModelWithAHashOfItsOwnIsHashedWithIt) {
  auto spec =
      racelab::Spec<Ring, HashedRing>("ring")
          .op(
              "push", [](auto& r, int v) { return r.push(v); },
              racelab::ints(0, 9))
          .op("size", [](auto& r) { return r.size(); })
          .without_random_scenario()
          .scenario("last_slot", Plan{{call("push", 100)},
                                      {{call("push", 1)}, {call("push", 2)}},
                                      {call("size")}});
  CheckOptions options = controlled();
  options.isolate = false;  // the counters are this process's
  const CheckResult result = spec.check("last_slot", options);
  EXPECT_TRUE(result.clean()) << result.message;
  EXPECT_GT(g_model_hashes, 0);
  EXPECT_EQ(g_model_shows, 0);
}

// A queue whose try_pop gives up on every second call, item or not.
class FlakyQueue {
 public:
  void push(int v) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(v);
  }
  std::optional<int> try_pop() {
    std::lock_guard<std::mutex> lock(mu_);
    if (++calls_ % 2 == 0 || items_.empty()) return std::nullopt;
    int v = items_.front();
    items_.pop_front();
    return v;
  }

 private:
  std::mutex mu_;
  std::deque<int> items_;
  int calls_ = 0;
};

struct RefQueue {
  std::deque<int> items;
  bool operator==(const RefQueue&) const = default;
};
std::string to_string(const RefQueue& q) { return racelab::show(q.items); }

template <class... Options>
racelab::Spec<FlakyQueue, RefQueue> flaky_spec(Options... options) {
  return racelab::Spec<FlakyQueue, RefQueue>("flaky")
      .op(
          "push",
          [](auto& q, int v) {
            if constexpr (requires { q.items; }) {
              q.items.push_back(v);
            } else {
              q.push(v);
            }
          },
          racelab::ints(0, 9))
      .op(
          "try_pop",
          [](auto& q) -> std::optional<int> {
            if constexpr (requires { q.items; }) {
              if (q.items.empty()) return std::nullopt;
              int v = q.items.front();
              q.items.pop_front();
              return v;
            } else {
              return q.try_pop();
            }
          },
          options...)
      .without_random_scenario()
      .scenario("pops", Plan{{call("push", 1), call("push", 2)},
                             {{call("try_pop")}, {call("try_pop")}},
                             {call("try_pop"), call("try_pop")}});
}

TEST(Spec, SpuriousFailureIsExpressible) {
  CheckResult strict = flaky_spec().check("pops", controlled());
  EXPECT_TRUE(strict.has(FindingKind::kNotLinearizable)) << strict.message;
  CheckResult lenient = flaky_spec(racelab::may_fail_with(std::nullopt))
                            .check("pops", controlled());
  EXPECT_TRUE(lenient.clean()) << lenient.message;
}

// A stack, correct as a bag (any item put in may come out) but not as a FIFO.
class Stack {
 public:
  void put(int v) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(v);
  }
  std::optional<int> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (items_.empty()) return std::nullopt;
    int v = items_.back();
    items_.pop_back();
    return v;
  }

 private:
  std::mutex mu_;
  std::vector<int> items_;
};

struct Bag {
  std::multiset<int> items;
  bool operator==(const Bag&) const = default;
};
std::string to_string(const Bag& b) { return racelab::show(b.items); }

TEST(Spec, BagSemanticsThroughJudgedBy) {
  auto spec = [](bool bag) {
    auto take_fifo = [](auto& s) -> std::optional<int> {
      if constexpr (requires { s.items; }) {
        if (s.items.empty()) return std::nullopt;
        int v = *s.items.begin();  // the smallest: what a FIFO of 1,2 gives
        s.items.erase(s.items.begin());
        return v;
      } else {
        return s.take();
      }
    };
    auto put = [](auto& s, int v) {
      if constexpr (requires { s.items; }) {
        s.items.insert(v);
      } else {
        s.put(v);
      }
    };
    racelab::Spec<Stack, Bag> s("stack");
    s.op("put", put, racelab::ints(0, 9));
    if (bag) {
      s.op("take", take_fifo,
           racelab::judged_by([](Bag& b, const std::optional<int>& got) {
             if (!got) return b.items.empty();
             auto it = b.items.find(*got);
             if (it == b.items.end()) return false;
             b.items.erase(it);
             return true;
           }));
    } else {
      s.op("take", take_fifo);
    }
    return s.without_random_scenario().scenario(
        "lifo", Plan{{call("put", 1), call("put", 2)}, {{call("take")}}, {}});
  };
  CheckResult fifo = spec(false).check("lifo", controlled());
  EXPECT_TRUE(fifo.has(FindingKind::kNotLinearizable)) << fifo.message;
  CheckResult bag = spec(true).check("lifo", controlled());
  EXPECT_TRUE(bag.clean()) << bag.message;
}

// A map of counters whose increment is a read and a write under two locks.
class Counters {
 public:
  explicit Counters(bool split) : split_(split) {}
  int add(const std::string& key) {
    int v;
    {
      std::lock_guard<std::mutex> lock(mu_);
      v = counts_[key];
      if (!split_) return counts_[key] = v + 1;
    }
    std::lock_guard<std::mutex> lock(mu_);
    return counts_[key] = v + 1;
  }
  int get(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return counts_[key];
  }

 private:
  bool split_;
  std::mutex mu_;
  std::map<std::string, int> counts_;
};

racelab::Spec<Counters> counters_spec(bool split) {
  return racelab::Spec<Counters>("counters")
      .make([split] { return std::make_unique<Counters>(split); })
      .op("add", &Counters::add, racelab::keys("k", 2))
      .op("get", &Counters::get, racelab::keys("k", 2))
      .partition_by_argument(0, "key")
      .invariant(
          "totals",
          [](Counters& c, const racelab::Calls& calls) -> std::string {
            int adds = 0;
            for (const auto& call : calls) {
              if (call.name() == "add" && call.arg<std::string>(0) == "k0")
                ++adds;
            }
            const int have = c.get("k0");
            if (have == adds) return "";
            return std::to_string(adds) + " adds of k0, counter " +
                   std::to_string(have);
          })
      .without_random_scenario()
      .scenario("two_adds", Plan{{call("get", "k1")},
                                 {{call("add", "k0")}, {call("add", "k0")}},
                                 {call("get", "k0")}});
}

TEST(Spec, PartitionsAndInvariants) {
  CheckResult clean = counters_spec(false).check("two_adds", controlled());
  EXPECT_TRUE(clean.clean()) << clean.message;
  CheckResult lost = counters_spec(true).check("two_adds", controlled());
  EXPECT_TRUE(lost.has(FindingKind::kNotLinearizable)) << lost.message;
  if (std::getenv("SPEC_TEST_SHOW")) std::cout << lost.message;
  EXPECT_TRUE(lost.has(FindingKind::kInvariantViolation)) << lost.message;
  EXPECT_NE(lost.message.find("key 'k0': "), std::string::npos) << lost.message;
  EXPECT_NE(lost.message.find("totals: 2 adds of k0, counter 1"),
            std::string::npos)
      << lost.message;
}

// An invariant may take the calls alone: it is marked to run off TSan's
// instrumented path, and it judges runs as one that takes the store does.
TEST(Spec, AnInvariantOverTheCallsAloneJudgesEveryRun) {
  auto spec = counters_spec(false).invariant(
      "one add of k0", [](const racelab::Calls& calls) -> std::string {
        int adds = 0;
        for (const auto& call : calls) {
          adds += call.name() == "add" && call.arg<std::string>(0) == "k0";
        }
        if (adds <= 1) return "";
        return std::to_string(adds) + " adds of k0";
      });
  const racelab::SpecRef core = spec.core();
  ASSERT_EQ(core->invariants.size(), 2u);
  EXPECT_FALSE(core->invariants[0].calls_only);  // "totals" takes the store
  EXPECT_TRUE(core->invariants[1].calls_only);
  CheckResult result = spec.check("two_adds", controlled());
  EXPECT_TRUE(result.has(FindingKind::kInvariantViolation)) << result.message;
  EXPECT_NE(result.message.find("one add of k0: 2 adds of k0"),
            std::string::npos)
      << result.message;
  EXPECT_EQ(result.message.find("totals:"), std::string::npos)
      << result.message;
}

TEST(Spec, CasesHonourTheSpecsOracleSelection) {
  racelab::CheckOptions options;
  options.oracles = racelab::OracleSet{racelab::Oracle::kLinearizability};
  const auto cases = racelab::spec_cases(ring_spec().options(options));
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    EXPECT_EQ(c.oracle, racelab::Oracle::kLinearizability) << c.name();
  }
  // No invariants declared: no invariants case.
  for (const auto& c : racelab::spec_cases(ring_spec())) {
    EXPECT_NE(c.oracle, racelab::Oracle::kInvariants) << c.name();
  }
}

// A map whose for_each hands entries to a callback, from which the
// operation writes back: nested calls, placed by the linearizability check
// on their own.
class Kv {
 public:
  void set(const std::string& k, const std::string& v) {
    std::lock_guard<std::mutex> lock(mu_);
    map_[k] = v;
  }
  std::optional<std::string> get(const std::string& k) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(k);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  std::map<std::string, std::string> snapshot() {
    std::lock_guard<std::mutex> lock(mu_);
    return map_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> map_;
};

TEST(Spec, NestedCallsAreRecordedAndPlaced) {
  int nested_seen = 0;
  auto spec =
      racelab::Spec<Kv>("kv")
          .op("set", &Kv::set, racelab::keys("k", 2), racelab::values("v"))
          .op("get", &Kv::get, racelab::values("k0", "k0'"))
          .op("copy_all",
              [](Kv& kv, racelab::CallContext& ctx) {
                // Copies every key k to k' from inside the operation.
                int n = 0;
                for (const auto& [k, v] : kv.snapshot()) {
                  if (k.ends_with('\'')) continue;
                  ctx.nested("set", k + "'", v);
                  ++n;
                }
                return n;
              })
          .invariant("nested",
                     [&nested_seen](Kv&, const racelab::Calls& calls) {
                       for (const auto& c : calls) nested_seen += c.nested();
                       return std::string();
                     })
          .without_random_scenario()
          .scenario("copy", Plan{{call("set", "k0", "v")},
                                 {{call("copy_all")}, {call("get", "k0'")}},
                                 {call("get", "k0'")}});
  // In process: the invariant's count is read here.
  CheckOptions options = controlled();
  options.isolate = false;
  CheckResult result = spec.check("copy", options);
  EXPECT_TRUE(result.clean()) << result.message;
  EXPECT_GT(nested_seen, 0);
}

// A store whose one operation touches nothing another thread sees, and
// pauses once in the middle.
class Quiet {
 public:
  int read() { return 7; }
};

// dfs explores one schedule per real-time order of the operations, which is
// all a history's verdict depends on: a call depends on another thread's
// return only, and a pause touches nothing. One operation per thread: 3
// orders for two threads (A before B, B before A, overlapping), 19 for
// three (the interval orders of three operations). Were every tick of the
// history clock dependent on every other, the two threads' four steps
// would have 6 orders.
TEST(Spec, DfsRunsEachRealTimeOrderOfTheOperationsOnce) {
  const std::vector<int> thread_counts = {2, 3};
  const std::vector<int> orders = {3, 19};
  for (std::size_t i = 0; i < thread_counts.size(); ++i) {
    std::vector<std::vector<racelab::PlannedCall>> threads(
        static_cast<std::size_t>(thread_counts[i]), {call("read")});
    auto spec = racelab::Spec<Quiet>("quiet")
                    .op("read",
                        [](Quiet& q, racelab::CallContext& ctx) {
                          ctx.pause();
                          return q.read();
                        })
                    .without_random_scenario()
                    .scenario("readers", Plan{{}, threads, {}});
    CheckOptions options = controlled();
    options.strategy = "dfs";
    options.preemptions = -1;  // no bound
    options.budget = 1000;
    const CheckResult result = spec.check("readers", options);
    EXPECT_TRUE(result.clean()) << result.message;
    EXPECT_TRUE(result.exhaustive) << result.message;
    EXPECT_EQ(result.schedules, orders[i]) << thread_counts[i] << " threads";
  }
}

// A plan declared without the seed is one program for the whole search:
// built once, not once per schedule. A plan of the seed is built for every
// schedule, since each schedule's seed may give another program.
TEST(Spec, APlanThatIgnoresTheSeedIsBuiltOncePerSearch) {
  int unseeded_builds = 0;
  int seeded_builds = 0;
  const Plan plan{{}, {{call("push", 1)}, {call("push", 2)}}, {call("size")}};
  auto spec = racelab::Spec<Ring>("ring")
                  .op("push", &Ring::push, racelab::ints(0, 9))
                  .op("size", &Ring::size)
                  .without_random_scenario()
                  .scenario("unseeded",
                            [&](ProgramSize) {
                              ++unseeded_builds;
                              return plan;
                            })
                  .scenario("seeded", [&](std::uint64_t, ProgramSize) {
                    ++seeded_builds;
                    return plan;
                  });
  CheckOptions options = controlled();
  options.isolate = false;  // the counters are this process's
  options.strategy = "random";
  options.budget = 20;
  const CheckResult unseeded = spec.check("unseeded", options);
  ASSERT_TRUE(unseeded.clean()) << unseeded.message;
  EXPECT_EQ(unseeded.schedules, 20);
  EXPECT_EQ(unseeded_builds, 1);
  const CheckResult seeded = spec.check("seeded", options);
  ASSERT_TRUE(seeded.clean()) << seeded.message;
  EXPECT_GE(seeded_builds, 20);
}

// A trace shows each operation's own result, not that of the last call it
// made from inside (whose result has another type).
TEST(Spec, ATracedResultIsTheOperationsOwnNotItsNestedCalls) {
  auto spec =
      racelab::Spec<Kv>("kv")
          .op("set", &Kv::set, racelab::keys("k", 2), racelab::values("v"))
          .op(
              "copy_keys",
              [](Kv& kv, racelab::CallContext& ctx) {
                std::vector<std::string> copied;
                for (const auto& [k, v] : kv.snapshot()) {
                  if (k.ends_with('\'')) continue;
                  ctx.nested("set", k + "'", v);
                  copied.push_back(k);
                }
                return copied;
              },
              racelab::judged_by(
                  [](Kv&, const std::vector<std::string>&) { return true; }))
          .invariant("always broken",
                     [](Kv&) { return std::string("to keep the trace"); })
          .without_random_scenario()
          .scenario("copy",
                    Plan{{call("set", "k0", "v")},
                         {{call("copy_keys")}, {call("set", "k1", "v")}},
                         {}});
  CheckOptions options = controlled();
  options.shrink = false;
  CheckResult result = spec.check("copy", options);
  ASSERT_FALSE(result.clean());
  bool shown = false;
  for (const auto& row : result.schedule.trace.rows) {
    shown = shown || row.text.find("-> [k0") != std::string::npos;
  }
  EXPECT_TRUE(shown) << racelab::sched::format_trace(result.schedule.trace);
}

TEST(Spec, CatalogViewRunsCasesAndChecksProgramLines) {
  const racelab::SpecRef split =
      ring_spec().make([] { return std::make_unique<SplitRing>(); });
  auto run = racelab::spec_case_runner(split, "last_slot");
  racelab::RunRequest request;
  request.mode = Mode::kControlled;
  request.budget = 200;
  racelab::RunObservation observed = run(request);
  EXPECT_TRUE(observed.has(FindingKind::kNotLinearizable));
  auto check = racelab::spec_program_line_checker(split);
  EXPECT_EQ(check("push(1); pop(); size()"), "");
  EXPECT_EQ(check("push(1); shove(2)"), "'shove(2)' is not a ring operation");
  EXPECT_EQ(check("push(x)"), "'push(x)' is not a ring operation");
  const auto scenarios = racelab::spec_scenarios(split);
  ASSERT_EQ(scenarios.size(), 2u);
  EXPECT_EQ(scenarios[1].name, "last_slot");
}

// Flags written as the rest of the argument list: "read(k)",
// "read(k,pause,stop=2)".
struct ReadFlags {
  bool pause = false;
  int stop = 0;
  bool operator==(const ReadFlags&) const = default;
};
std::string to_string(const ReadFlags& f) {
  std::string out = f.pause ? "pause" : "";
  if (f.stop > 0)
    out += (out.empty() ? "stop=" : ",stop=") + std::to_string(f.stop);
  return out;
}
struct ReadFlagSets {
  static constexpr bool kRestOfArguments = true;
  using value_type = ReadFlags;
  ReadFlags generate(racelab::Choices& c) const {
    return {c.below(2) == 0, c.below(3)};
  }
  std::optional<ReadFlags> parse(std::string_view text) const {
    ReadFlags f;
    while (!text.empty()) {
      const std::size_t comma = text.find(',');
      const std::string_view word = text.substr(0, comma);
      text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
      if (word == "pause") {
        f.pause = true;
      } else if (word == "stop=2") {
        f.stop = 2;
      } else {
        return std::nullopt;
      }
    }
    return f;
  }
};

TEST(Spec, RestOfArgumentsReadAndWriteAsWords) {
  const racelab::SpecRef spec =
      racelab::Spec<Kv>("kv")
          .op(
              "read",
              [](Kv& kv, const std::string& k, const ReadFlags&) {
                return kv.get(k);
              },
              racelab::keys("k", 2), ReadFlagSets{})
          .without_random_scenario()
          .scenario("reads", Plan{{}, {{call("read", "k0", ReadFlags{})}}, {}},
                    "", {Mode::kControlled});
  const racelab::OperationDecl& read = spec->ops[0];
  auto shown = [&](std::vector<std::string> texts) {
    auto args = read.parse_args(texts);
    return args ? read.show_args(args->get()) : std::string("(no parse)");
  };
  EXPECT_EQ(shown({"k0"}), "k0");
  EXPECT_EQ(shown({"k0", "pause"}), "k0,pause");
  EXPECT_EQ(shown({"k0", "pause", "stop=2"}), "k0,pause,stop=2");
  EXPECT_EQ(shown({"k0", "stop=3"}), "(no parse)");
  EXPECT_EQ(shown({}), "(no parse)");
  auto check = racelab::spec_program_line_checker(spec);
  EXPECT_EQ(check("read(k1); read(k0,pause,stop=2)"), "");
  EXPECT_EQ(check("read(k0,loud)"), "'read(k0,loud)' is not a kv operation");
  const auto scenarios = racelab::spec_scenarios(spec);
  ASSERT_EQ(scenarios.size(), 1u);
  EXPECT_EQ(scenarios[0].modes, std::vector<Mode>{Mode::kControlled});
}

std::string input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const racelab::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

class Abstract {
 public:
  virtual ~Abstract() = default;
  virtual int get() = 0;
};

TEST(Spec, DeclarationErrorsAreOneLineNamingTheProblem) {
  EXPECT_EQ(input_error([] {
              ring_spec()
                  .scenario("bad", Plan{{}, {{call("shove", 1)}}, {}})
                  .check("bad", controlled());
            }),
            "spec 'ring', scenario 'bad': 'shove' is not one of its "
            "operations");
  EXPECT_EQ(input_error([] {
              ring_spec()
                  .scenario("bad", Plan{{}, {{call("push", "x")}}, {}})
                  .check("bad", controlled());
            }),
            "spec 'ring', scenario 'bad': push: argument 1: got std::string, "
            "expected int");
  EXPECT_EQ(input_error([] {
              racelab::Spec<Abstract>("abstract")
                  .op("get", &Abstract::get)
                  .check("random", controlled());
            }),
            "spec 'abstract': no store factory: the store type is abstract "
            "or has no default constructor; give one with .make(...)");
  EXPECT_EQ(input_error([] { ring_spec().setup_calls(-1).check(); }),
            "spec 'ring': threads must be at least 1, and operations, setup "
            "and finale calls at least 0");
  EXPECT_EQ(input_error([] { ring_spec().check("nope", controlled()); }),
            "spec 'ring' has no scenario 'nope' (it has random, last_slot)");
}

// A wrong call in a hand-written scenario is found when the tests are made,
// once: one line and exit status 2, not an exception in every test that
// runs the scenario.
TEST(Spec, AWrongHandWrittenCallIsOneReportBeforeAnyTest) {
  const racelab::SpecRef bad =
      ring_spec().scenario("bad", Plan{{}, {{call("shove", 1)}}, {}});
  EXPECT_EQ(input_error([&] { racelab::spec_cases(bad); }),
            "spec 'ring', scenario 'bad': 'shove' is not one of its "
            "operations");
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(racelab::gtest_internal::spec_cases_or_exit(
                  bad, /*per_oracle=*/false, {Mode::kControlled}),
              ::testing::ExitedWithCode(2),
              "racelab: spec 'ring', scenario 'bad': 'shove' is not one of "
              "its operations");
}

}  // namespace
