// An LRU cache whose get() moves the entry to the front of its recency list
// with std::list::splice while holding only a SHARED lock: splice relinks
// nodes, so two readers (or a reader and an iteration) write the list at
// once. Whether TSan can see that depends on where splice's code lives:
// libstdc++ relinks in std::__detail::_List_node_base::_M_transfer, compiled
// into libstdc++.so without TSan, and only the size counter is updated in
// the header; libc++'s list is all header code. These tests measure both
// (the tsan build against libstdc++, the tsan-libcxx preset against libc++;
// docs/libcxx.md). The fixed cache (get under the exclusive lock) must be
// clean under both.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <iostream>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "racelab/gtest.h"
#include "racelab/internal/op_text.h"
#include "racelab/sync.h"

namespace stdlib_test {
namespace {

constexpr int kCapacity = 4;

// Keys to values, at most kCapacity of them; put() evicts the least
// recently used key.
class LruCache {
 public:
  explicit LruCache(bool exclusive_get) : exclusive_get_(exclusive_get) {}

  std::optional<int> get(int key) {
    if (exclusive_get_) {
      racelab::WriterLock lock(mu_);
      return touch(key);
    }
    // BUG: a lookup "only reads", so it takes the shared lock; but touch()
    // splices the list, which writes its nodes' links.
    racelab::ReaderLock lock(mu_);
    return touch(key);
  }

  void put(int key, int value) {
    racelab::WriterLock lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      it->second.value = value;
      order_.splice(order_.begin(), order_, it->second.position);
      return;
    }
    if (static_cast<int>(entries_.size()) == kCapacity) {
      entries_.erase(order_.back());
      order_.pop_back();
    }
    order_.push_front(key);
    entries_.emplace(key, Entry{value, order_.begin()});
  }

  // The keys, most recently used first: an iteration of the list. It stops
  // after 2 * kCapacity keys and fills the vector one key at a time, so an
  // iteration that races a relink (the bug) returns a wrong answer instead
  // of looping or writing past a vector sized before the walk.
  std::vector<int> keys() {
    racelab::ReaderLock lock(mu_);
    std::vector<int> out;
    for (auto it = order_.begin();
         it != order_.end() && static_cast<int>(out.size()) < 2 * kCapacity;
         ++it) {
      out.push_back(*it);
    }
    return out;
  }

 private:
  struct Entry {
    int value;
    std::list<int>::iterator position;
  };

  std::optional<int> touch(int key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second.position);
    return it->second.value;
  }

  const bool exclusive_get_;
  racelab::SharedMutex mu_;
  std::list<int> order_;  // keys, most recent first
  std::unordered_map<int, Entry> entries_;
};

struct LruOp {
  enum class Kind { kGet, kPut, kKeys };
  Kind kind = Kind::kGet;
  int key = 0;
  int value = 0;  // put
};

struct LruResult {
  std::optional<int> value;  // get
  std::vector<int> keys;     // keys
};

std::string describe_op(const LruOp& op) {
  switch (op.kind) {
    case LruOp::Kind::kGet:
      return "get(" + std::to_string(op.key) + ")";
    case LruOp::Kind::kPut:
      return "put(" + std::to_string(op.key) + "," + std::to_string(op.value) +
             ")";
    case LruOp::Kind::kKeys:
      return "keys()";
  }
  return "?";
}

std::string describe_keys(const std::vector<int>& keys) {
  std::string out = "[";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out += (i ? "," : "") + std::to_string(keys[i]);
  }
  return out + "]";
}

std::string describe_result(const LruOp& op, const LruResult& r) {
  switch (op.kind) {
    case LruOp::Kind::kGet:
      return r.value ? std::to_string(*r.value) : "absent";
    case LruOp::Kind::kPut:
      return "ok";
    case LruOp::Kind::kKeys:
      return describe_keys(r.keys);
  }
  return "?";
}

// The sequential LRU: (key, value) pairs, most recently used first.
struct LruModel {
  using State = std::vector<std::pair<int, int>>;
  using Input = LruOp;
  using Output = LruResult;
  static constexpr const char* kObjectName = "lru";

  static std::size_t hash(const State& s) {
    std::size_t h = s.size();
    for (const auto& [k, v] : s) h = (h * 1000003u ^ k) * 31u + v;
    return h;
  }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    *next = s;
    auto it = next->begin();
    while (it != next->end() && it->first != in.key) ++it;
    switch (in.kind) {
      case LruOp::Kind::kGet:
        if (it == next->end()) return !out.value;
        if (out.value != it->second) return false;
        std::rotate(next->begin(), it, it + 1);
        return true;
      case LruOp::Kind::kPut:
        if (it != next->end()) {
          it->second = in.value;
          std::rotate(next->begin(), it, it + 1);
          return true;
        }
        if (static_cast<int>(next->size()) == kCapacity) next->pop_back();
        next->insert(next->begin(), {in.key, in.value});
        return true;
      case LruOp::Kind::kKeys: {
        std::vector<int> keys;
        for (const auto& e : s) keys.push_back(e.first);
        return out.keys == keys;
      }
    }
    return false;
  }
  static std::string describe(const Input& in, const Output& out) {
    return describe_op(in) + " -> " + describe_result(in, out);
  }
  static std::string describe(const State& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) {
      out += (i ? "," : "") + std::to_string(s[i].first) + ":" +
             std::to_string(s[i].second);
    }
    return out + "]";
  }
};

struct LruFamily : racelab::LinearizableBy<LruModel> {
  using Store = LruCache;
  using Op = LruOp;
  using Result = LruResult;
  static constexpr const char* kName = "lru";

  static Result execute(Store& cache, const Op& op, racelab::OpContext&,
                        racelab::History<Op, Result>*) {
    Result r;
    switch (op.kind) {
      case Op::Kind::kGet:
        r.value = cache.get(op.key);
        break;
      case Op::Kind::kPut:
        cache.put(op.key, op.value);
        break;
      case Op::Kind::kKeys:
        r.keys = cache.keys();
        break;
    }
    return r;
  }
  static std::string describe(const Op& op) { return describe_op(op); }
  static std::string describe(const Op& op, const Result& r) {
    return describe_result(op, r);
  }
  static std::optional<Op> parse(std::string_view text) {
    std::optional<racelab::OpText> t = racelab::parse_op_text(text);
    if (!t) return std::nullopt;
    try {
      if (t->name == "get" && t->args.size() == 1) {
        return Op{Op::Kind::kGet, std::stoi(t->args[0]), 0};
      }
      if (t->name == "put" && t->args.size() == 2) {
        return Op{Op::Kind::kPut, std::stoi(t->args[0]), std::stoi(t->args[1])};
      }
      if (t->name == "keys" && t->args.empty()) {
        return Op{Op::Kind::kKeys, 0, 0};
      }
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }
};
static_assert(racelab::Family<LruFamily>);

std::unique_ptr<LruCache> make_shared_get() {
  return std::make_unique<LruCache>(/*exclusive_get=*/false);
}
std::unique_ptr<LruCache> make_exclusive_get() {
  return std::make_unique<LruCache>(/*exclusive_get=*/true);
}

LruOp get_op(int k) { return {LruOp::Kind::kGet, k, 0}; }
LruOp put_op(int k, int v) { return {LruOp::Kind::kPut, k, v}; }
LruOp keys_op() { return {LruOp::Kind::kKeys, 0, 0}; }

// Setup: keys 1..3, so 1 is the least recent and a get(1) or get(2) relinks.
std::vector<LruOp> three_keys() {
  return {put_op(1, 10), put_op(2, 20), put_op(3, 30)};
}

// Two readers touch different keys: both splice.
racelab::Program<LruOp> get_vs_get(std::uint64_t, racelab::ProgramSize s) {
  racelab::Program<LruOp> p;
  p.setup = three_keys();
  const int rounds = s == racelab::ProgramSize::kFull ? 200 : 1;
  p.threads.resize(2);
  for (int i = 0; i < rounds; ++i) {
    p.threads[0].push_back(get_op(1));
    p.threads[1].push_back(get_op(2));
  }
  p.finale = {keys_op()};
  return p;
}

// A reader splices while another iterates the list.
racelab::Program<LruOp> get_vs_keys(std::uint64_t, racelab::ProgramSize s) {
  racelab::Program<LruOp> p;
  p.setup = three_keys();
  const int rounds = s == racelab::ProgramSize::kFull ? 200 : 1;
  p.threads.resize(2);
  for (int i = 0; i < rounds; ++i) {
    p.threads[0].push_back(get_op(1 + i % 3));
    p.threads[1].push_back(keys_op());
  }
  p.finale = {keys_op()};
  return p;
}

racelab::Scenario<LruFamily> scenario(bool keys) {
  if (keys) {
    return {
        "get_vs_keys", "a get splices while keys() iterates", get_vs_keys, {}};
  }
  return {"get_vs_get", "two gets splice different keys", get_vs_get, {}};
}

constexpr bool kLibcxx =
#if defined(_LIBCPP_VERSION)
    true;
#else
    false;
#endif

// Whether a finding's accesses run through a function whose name has `part`.
bool through(const racelab::Finding& f, std::string_view part) {
  for (const racelab::Access& a : f.accesses) {
    for (const racelab::Frame& frame : a.stack) {
      if (frame.function.find(part) != std::string::npos) return true;
    }
  }
  return false;
}

racelab::CheckResult check(racelab::StoreFactory<LruFamily> factory, bool keys,
                           racelab::Mode mode) {
  racelab::CheckOptions options;
  options.mode = mode;
  options.oracles = {racelab::Oracle::kTsan};
  options.budget = 500;
  options.stress_runs = 20;
  racelab::CheckResult r =
      racelab::check_store<LruFamily>(factory, scenario(keys), options);
  std::cout << (kLibcxx ? "libc++" : "libstdc++") << " " << scenario(keys).name
            << " " << racelab::to_string(mode) << ": "
            << (r.clean() ? "no report" : "reported") << " after "
            << (mode == racelab::Mode::kStress ? r.runs : r.schedules)
            << (mode == racelab::Mode::kStress ? " runs" : " schedules") << "\n"
            << racelab::format_findings(r.findings);
  return r;
}

// A case: the mode and the scenario (get_vs_keys or get_vs_get).
struct SpliceCase {
  racelab::Mode mode;
  bool keys;
};

// How gtest prints a case: "get_vs_keys/stress".
void PrintTo(const SpliceCase& c, std::ostream* os) {
  *os << (c.keys ? "get_vs_keys/" : "get_vs_get/")
      << racelab::to_string(c.mode);
}

class LruSplice : public ::testing::TestWithParam<SpliceCase> {
 protected:
  void SetUp() override {
    if (!racelab::built_with_tsan()) {
      GTEST_SKIP() << "what is measured is TSan's view of the list";
    }
  }
};

// libc++: the splice's relinking is header code, instrumented, and TSan
// reports the race in both scenarios. libstdc++: the links are written in
// _M_transfer inside libstdc++.so, which TSan does not see, and the size
// update that the header does inline (_M_inc_size(1), _M_dec_size(1) on
// the same list) folds to nothing once inlined; so no data race is ever
// reported. What stress mode may still catch there is the damage: an
// iteration that races a relink can walk past the vector it fills
// (heap-use-after-free), a symptom, not the race.
TEST_P(LruSplice, SharedGetRaceIsReportedOnlyWithHeaderSplice) {
  racelab::CheckResult r =
      check(&make_shared_get, GetParam().keys, GetParam().mode);
  if (kLibcxx) {
    ASSERT_TRUE(r.has(racelab::FindingKind::kDataRace)) << r.message;
    EXPECT_TRUE(through(r.findings.front(), "splice")) << r.message;
  } else {
    EXPECT_FALSE(r.has(racelab::FindingKind::kDataRace))
        << "TSan now sees libstdc++'s splice; docs/libcxx.md is out of "
           "date:\n"
        << r.message;
  }
}

// The fix, get() under the exclusive lock, is clean either way.
TEST_P(LruSplice, ExclusiveGetIsClean) {
  EXPECT_TRUE(
      check(&make_exclusive_get, GetParam().keys, GetParam().mode).clean());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LruSplice,
    ::testing::Values(SpliceCase{racelab::Mode::kControlled, false},
                      SpliceCase{racelab::Mode::kControlled, true},
                      SpliceCase{racelab::Mode::kStress, true}),
    [](const ::testing::TestParamInfo<SpliceCase>& i) {
      return std::string(i.param.keys ? "get_vs_keys_" : "get_vs_get_") +
             racelab::to_string(i.param.mode);
    });

// Stress mode with two real splices at once corrupts the list for real (a
// node lost, a cycle), and a check runs in this process: the run may crash
// or hang the binary. Not run by ctest; run by hand with
// --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_GetVsGetStress'.
TEST(LruSpliceByHand, DISABLED_GetVsGetStress) {
  if (!racelab::built_with_tsan()) GTEST_SKIP() << "TSan build only";
  racelab::CheckResult r =
      check(&make_shared_get, false, racelab::Mode::kStress);
  if (kLibcxx) {
    EXPECT_TRUE(r.has(racelab::FindingKind::kDataRace)) << r.message;
  } else {
    EXPECT_FALSE(r.has(racelab::FindingKind::kDataRace)) << r.message;
  }
}

}  // namespace
}  // namespace stdlib_test
