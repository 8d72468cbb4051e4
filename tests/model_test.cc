// The specs' sequential models (checkpoint_spec.h, state_spec.h): what each
// declared operation may return in a state and what state it leaves; and
// partitioned linearizability (linearizability.h, kit.h, spec.h), which
// checks a history one part at a time, for the checkpoint spec's sessions
// and for a user's model keyed by an integer.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "checkpoint/variants.h"
#include "checkpoint_spec.h"
#include "racelab/internal/family.h"
#include "spec_calls.h"
#include "state_spec.h"

namespace racelab {
namespace {

using checkpoint::CheckpointId;
using checkpoint::IndexRead;
using checkpoint::Looked;
using checkpoint::LookupId;
using checkpoint::SessionModel;
using state::AllFlags;
using state::Entries;
using state::MapModel;
using testing::steps;

const SpecRef& checkpoints() {
  static const SpecRef* spec = new SpecRef(checkpoint::checkpoint_spec());
  return *spec;
}
const SpecRef& states() {
  static const SpecRef* spec = new SpecRef(state::state_spec());
  return *spec;
}

SessionModel session_with(const std::vector<std::string>& payloads) {
  SessionModel m;
  for (const std::string& p : payloads) m.commit("s", p);
  return m;
}

// The state a call leaves, or nullopt when the model refuses its result.
template <class Model, class R>
std::optional<Model> after(const SpecRef& spec, Model model,
                           const PlannedCall& planned, R result) {
  if (!steps(spec, model, planned, std::move(result))) return std::nullopt;
  return model;
}

TEST(SessionModel, CommitReturnsTheNextIdAndAppends) {
  const SessionModel s = session_with({"a"});
  EXPECT_EQ(after(checkpoints(), s, call("commit", "s", "b"), CheckpointId{1}),
            session_with({"a", "b"}));
  EXPECT_FALSE(
      after(checkpoints(), s, call("commit", "s", "b"), CheckpointId{0}));
  EXPECT_FALSE(
      after(checkpoints(), s, call("commit", "s", "b"), CheckpointId{2}));
}

TEST(SessionModel, LookupReturnsThePayloadOrNotFound) {
  const SessionModel s = session_with({"a", "b"});
  auto lookup = [](std::int64_t id) {
    return call("lookup", "s", LookupId{id});
  };
  EXPECT_EQ(after(checkpoints(), s, lookup(1), Looked{1, "b"}), s);
  EXPECT_EQ(after(checkpoints(), s, lookup(2), Looked{2, std::nullopt}), s);
  EXPECT_FALSE(after(checkpoints(), s, lookup(1), Looked{1, "a"}));
  EXPECT_FALSE(after(checkpoints(), s, lookup(0), Looked{0, std::nullopt}));
  EXPECT_FALSE(after(checkpoints(), s, lookup(5), Looked{5, "a"}));
  // "last": the id looked up is the one the result carries.
  EXPECT_EQ(
      after(checkpoints(), s, call("lookup", "s", LookupId{}), Looked{1, "b"}),
      s);
}

TEST(SessionModel, IndexIsEveryIdInCommitOrder) {
  const SessionModel s = session_with({"a", "b", "c"});
  const PlannedCall index = call("index", "s", IndexRead{});
  using Ids = std::vector<CheckpointId>;
  EXPECT_EQ(after(checkpoints(), s, index, Ids{0, 1, 2}), s);
  EXPECT_FALSE(after(checkpoints(), s, index, Ids{0, 1}));
  EXPECT_FALSE(after(checkpoints(), s, index, Ids{0, 2, 1}));
  EXPECT_FALSE(after(checkpoints(), s, index, Ids{0, 1, 2, 3}));
  EXPECT_EQ(after(checkpoints(), SessionModel{}, index, Ids{}), SessionModel{});
}

TEST(SessionModel, PartitionsBySessionAndShowsItsPayloads) {
  EXPECT_EQ(checkpoints()->partition_argument, 0);
  EXPECT_EQ(checkpoints()->partition_name, "session");
  EXPECT_EQ(states()->partition_argument, -1);
  EXPECT_EQ(show(session_with({"a", "b"})), "{0=a, 1=b}");
}

// The linearizability search tries the order of the calls' returns first,
// stepping one model object in place (the first guess), and searches only
// when that order stops fitting. Where it stops must be exactly where
// stepping the model stops: a first guess that fits only in part and no other
// order explains is a finding; one that another order explains is none.
History<DeclaredCall, DeclaredValue> session_history(
    const std::vector<std::tuple<int, std::uint64_t, std::uint64_t, PlannedCall,
                                 DeclaredValue>>& calls) {
  History<DeclaredCall, DeclaredValue> history;
  for (const auto& [thread, start, end, planned, result] : calls) {
    history.push_back({thread, false, testing::declared(checkpoints(), planned),
                       result, start, end});
  }
  return history;
}

TEST(SessionModel, TheFirstGuessFitsExactlyAsFarAsStepsGo) {
  using testing::value;
  using Ids = std::vector<CheckpointId>;
  const auto commit_a = call("commit", "s", "a");
  const auto commit_b = call("commit", "s", "b");
  const auto lookup_1 = call("lookup", "s", LookupId{1});
  const auto index = call("index", "s", IndexRead{});
  // In return order: commit a -> 0, commit b -> 1, lookup(1) -> b, index.
  EXPECT_TRUE(check_spec_linearizability(
                  session_history({{0, 1, 2, commit_a, value(CheckpointId{0})},
                                   {1, 3, 4, commit_b, value(CheckpointId{1})},
                                   {0, 5, 6, lookup_1, value(Looked{1, "b"})},
                                   {1, 7, 8, index, value(Ids{0, 1})}}))
                  .empty());
  // Commit b returned first but took id 1: the return order stops fitting at
  // once; the overlapping commit a linearizes before it.
  EXPECT_TRUE(check_spec_linearizability(
                  session_history({{0, 1, 6, commit_a, value(CheckpointId{0})},
                                   {1, 2, 3, commit_b, value(CheckpointId{1})},
                                   {1, 7, 8, index, value(Ids{0, 1})}}))
                  .empty());
  // Everything fits but the last call, and no order explains it.
  for (const DeclaredValue& wrong :
       {value(Ids{0}), value(Ids{1, 0}), value(Ids{0, 1, 2})}) {
    const std::vector<Finding> findings = check_spec_linearizability(
        session_history({{0, 1, 2, commit_a, value(CheckpointId{0})},
                         {1, 3, 4, commit_b, value(CheckpointId{1})},
                         {0, 5, 6, lookup_1, value(Looked{1, "b"})},
                         {1, 7, 8, index, wrong}}));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].summary,
              "session 's': thread 1: index(s) returned a result no "
              "sequential order explains");
  }
  // The middle call does not fit (lookup(1) before anything took id 1 would
  // be not_found, after commit b it is b): a finding, though the calls
  // after it would fit.
  const std::vector<Finding> middle = check_spec_linearizability(
      session_history({{0, 1, 2, commit_a, value(CheckpointId{0})},
                       {0, 3, 4, lookup_1, value(Looked{1, "a"})},
                       {1, 5, 6, commit_b, value(CheckpointId{1})}}));
  ASSERT_EQ(middle.size(), 1u);
  EXPECT_EQ(middle[0].kind, FindingKind::kNotLinearizable);
}

TEST(SpecText, OperationsReadAndWriteAsBefore) {
  // The op text of schedule files written before the specs.
  for (const SpecRef& spec : {checkpoints(), states()}) {
    auto check = spec_program_line_checker(spec);
    for (const char* line :
         {"commit(s0,x0); index(s0); lookup(s0,last); lookup(s0,3)",
          "index(s,pause)", "set(k0,v0); get(k1); erase(k2)",
          "all(); all(pause); all(pause,stop=2); all(write); "
          "all(pause,stop=2,write)"}) {
      const bool checkpoint_line = std::string_view(line).starts_with("c") ||
                                   std::string_view(line).starts_with("i");
      EXPECT_EQ(check(line).empty(), checkpoint_line == (spec == checkpoints()))
          << line << ": " << check(line);
    }
  }
  auto shown = [](const SpecRef& spec, const PlannedCall& planned) {
    const DeclaredCall c = testing::declared(spec, planned);
    const OperationDecl& d = spec->ops[static_cast<std::size_t>(c.op)];
    return d.name + "(" + d.show_args(c.args.get()) + ")";
  };
  EXPECT_EQ(shown(checkpoints(), call("lookup", "s", LookupId{})),
            "lookup(s,last)");
  EXPECT_EQ(shown(checkpoints(), call("index", "s", IndexRead{true})),
            "index(s,pause)");
  EXPECT_EQ(shown(checkpoints(), call("index", "s", IndexRead{})), "index(s)");
  EXPECT_EQ(shown(states(), call("all", AllFlags{})), "all()");
  EXPECT_EQ(shown(states(), call("all", AllFlags{true, 2, true})),
            "all(pause,stop=2,write)");
  EXPECT_EQ(spec_program_line_checker(states())("all(stop=0)"),
            "'all(stop=0)' is not a state operation");
  EXPECT_EQ(spec_program_line_checker(checkpoints())("lookup(s,-1)"),
            "'lookup(s,-1)' is not a checkpoint operation");
}

MapModel map_with(const std::map<std::string, std::string>& entries) {
  MapModel m;
  for (const auto& [k, v] : entries) m.set(k, v);
  return m;
}

TEST(MapModel, SetGetErase) {
  const MapModel s = map_with({{"k", "1"}});
  using Value = std::optional<std::string>;
  EXPECT_EQ(after(states(), s, call("set", "k", "2"), Done{}),
            map_with({{"k", "2"}}));
  EXPECT_EQ(after(states(), s, call("get", "k"), Value("1")), s);
  EXPECT_FALSE(after(states(), s, call("get", "k"), Value("2")));
  EXPECT_FALSE(after(states(), s, call("get", "k"), Value()));
  EXPECT_EQ(after(states(), s, call("get", "x"), Value()), s);
  EXPECT_EQ(after(states(), s, call("erase", "k"), true), MapModel{});
  EXPECT_FALSE(after(states(), s, call("erase", "k"), false));
  EXPECT_FALSE(after(states(), s, call("erase", "x"), true));
}

TEST(MapModel, AllYieldsExactlyTheContentsInAnyOrder) {
  const MapModel s = map_with({{"a", "1"}, {"b", "2"}});
  const PlannedCall all = call("all", AllFlags{});
  EXPECT_EQ(after(states(), s, all, Entries{{{"b", "2"}, {"a", "1"}}}), s);
  // Missing, stale, unknown and duplicated entries are no state of the map.
  EXPECT_FALSE(after(states(), s, all, Entries{{{"a", "1"}}}));
  EXPECT_FALSE(after(states(), s, all, Entries{{{"a", "0"}, {"b", "2"}}}));
  EXPECT_FALSE(after(states(), s, all, Entries{{{"a", "1"}, {"c", "3"}}}));
  EXPECT_FALSE(after(states(), s, all, Entries{{{"a", "1"}, {"a", "1"}}}));
}

TEST(MapModel, AnEarlyStopYieldsThatManyEntriesOfTheContents) {
  const MapModel s = map_with({{"a", "1"}, {"b", "2"}, {"c", "3"}});
  auto stop = [](int n) { return call("all", AllFlags{false, n, false}); };
  EXPECT_TRUE(after(states(), s, stop(2), Entries{{{"c", "3"}, {"a", "1"}}}));
  EXPECT_FALSE(after(states(), s, stop(2), Entries{{{"c", "3"}}}));
  EXPECT_TRUE(after(states(), s, stop(5),
                    Entries{{{"a", "1"}, {"b", "2"}, {"c", "3"}}}));
}

// A checkpoint store whose ids are off: every session's first commit gets
// id `first` (the correct store's 0), the next `first + 1`, ...
class OffsetIds : public checkpoint::CheckpointStore {
 public:
  explicit OffsetIds(CheckpointId first) : first_(first) {}
  CheckpointId commit(const std::string& session,
                      std::string payload) override {
    std::lock_guard<std::mutex> lock(mu_);
    return first_ + inner_->commit(session, std::move(payload));
  }
  std::optional<std::string> lookup(const std::string& session,
                                    CheckpointId id) override {
    return inner_->lookup(session, id);
  }
  checkpoint::IndexView retrieve_index(const std::string& session) override {
    return inner_->retrieve_index(session);
  }

 private:
  std::mutex mu_;
  CheckpointId first_;
  std::unique_ptr<checkpoint::CheckpointStore> inner_ =
      checkpoint::make_mutex();
};

CheckResult check_plan(const SpecRef& base, const Plan& plan,
                       std::function<std::shared_ptr<void>()> make) {
  auto spec = std::make_shared<SpecCore>(*base);
  spec->scenarios.clear();
  spec->scenarios.push_back(
      {"plan", "", [plan](std::uint64_t, ProgramSize) { return plan; }});
  if (!make) {
    make = [] {
      return std::shared_ptr<void>(std::shared_ptr<checkpoint::CheckpointStore>(
          checkpoint::make_mutex()));
    };
  }
  spec->make_store = std::move(make);
  CheckOptions options;
  options.budget = 20;
  options.shrink = false;
  options.oracles = OracleSet{Oracle::kLinearizability};
  return check_spec(spec, "plan", options);
}

std::vector<std::string> summaries(const CheckResult& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) out.push_back(f.summary);
  return out;
}

std::function<std::shared_ptr<void>()> offset_store(CheckpointId first) {
  return [first] {
    return std::shared_ptr<void>(std::shared_ptr<checkpoint::CheckpointStore>(
        std::make_shared<OffsetIds>(first)));
  };
}

TEST(PartitionedLinearizability, AViolationInEverySessionIsAFindingEach) {
  // Both sessions' first commits get id 1: each session is wrong on its own.
  const Plan bad{
      {}, {{call("commit", "s1", "a")}, {call("commit", "s2", "x")}}, {}};
  const CheckResult both = check_plan(checkpoints(), bad, offset_store(1));
  ASSERT_EQ(both.findings.size(), 2u) << both.message;
  EXPECT_EQ(both.findings[0].kind, FindingKind::kNotLinearizable);
  EXPECT_EQ(summaries(both)[0].rfind("session 's1': thread ", 0), 0u)
      << summaries(both)[0];
  EXPECT_EQ(summaries(both)[1].rfind("session 's2': thread ", 0), 0u)
      << summaries(both)[1];
  EXPECT_EQ(both.findings[0].detail.rfind("thread 0: commit(s1,a) -> 1", 0), 0u)
      << both.findings[0].detail;
}

TEST(PartitionedLinearizability, SetupOperationsFoldIntoTheirOwnPart) {
  // Setup committed one checkpoint to s1 only: the run's first commit to s1
  // gets id 1, to s2 id 0, and each session's history is linearizable.
  const Plan plan{
      {call("commit", "s1", "old")},
      {{call("commit", "s1", "new"), call("index", "s1", IndexRead{})},
       {call("commit", "s2", "new")}},
      {call("lookup", "s1", LookupId{1})}};
  const CheckResult fine = check_plan(checkpoints(), plan, nullptr);
  EXPECT_TRUE(fine.clean()) << fine.message;
}

// A history event.
template <class Op, class Result>
Event<Op, Result> event(int thread, std::uint64_t call, std::uint64_t ret,
                        Op op, Result result) {
  return {thread, false, std::move(op), std::move(result), call, ret};
}

// A user's model: registers keyed by an integer, each holding one value.
struct Register {
  enum class Kind { kWrite, kRead };
  Kind kind;
  int key;
  int value;
};
struct RegisterModel {
  using State = int;
  using Input = Register;
  using Output = int;  // read: the value; write: 0
  static int partition(const Input& in) { return in.key; }
  static std::size_t hash(const State& s) {
    return static_cast<std::size_t>(s);
  }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    if (in.kind == Register::Kind::kWrite) {
      *next = in.value;
      return true;
    }
    *next = s;
    return out == s;
  }
  static std::string describe(const Input& in, const Output& out) {
    return in.kind == Register::Kind::kWrite
               ? "write(" + std::to_string(in.value) + ")"
               : "read -> " + std::to_string(out);
  }
  static std::string describe(const State& s) { return std::to_string(s); }
};

TEST(PartitionedLinearizability, AUsersModelGetsItToo) {
  static_assert(PartitionedModel<RegisterModel>);
  using W = Register;
  History<Register, int> history = {
      event(0, 1, 2, W{W::Kind::kWrite, 1, 5}, 0),
      event(1, 3, 4, W{W::Kind::kRead, 1, 0}, 5),
      event(1, 5, 6, W{W::Kind::kRead, 2, 0}, 0),
      event(0, 7, 8, W{W::Kind::kRead, 2, 0}, 9),  // key 2 never held 9
  };
  std::vector<Finding> findings;
  check_history_with_model<RegisterModel>(history, findings);
  ASSERT_EQ(findings.size(), 1u);
  // No kPartitionName: the part is named "part".
  EXPECT_EQ(findings[0].summary,
            "part '2': thread 0: read -> 9 returned a result no sequential "
            "order explains");
}

// A state store whose iteration yields one entry too many.
class ExtraEntry : public state::StateStore {
 public:
  void set(const std::string& key, std::string value) override {
    std::lock_guard<std::mutex> lock(mu_);
    map_[key] = std::move(value);
  }
  std::optional<std::string> get(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  bool erase(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.erase(key) > 0;
  }
  void all(state::Yield yield) override {
    std::map<std::string, std::string> copy;
    {
      std::lock_guard<std::mutex> lock(mu_);
      copy = map_;
    }
    copy["b"] = "2";
    for (const auto& [k, v] : copy) {
      if (!yield(k, v)) return;
    }
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> map_;
};

TEST(Linearizability, TheStateSpecsSummaryNamesTheCallAlone) {
  const Plan plan{{call("set", "a", "1")}, {{call("all", AllFlags{})}}, {}};
  const CheckResult r = check_plan(states(), plan, [] {
    return std::shared_ptr<void>(
        std::shared_ptr<state::StateStore>(std::make_shared<ExtraEntry>()));
  });
  ASSERT_EQ(r.findings.size(), 1u) << r.message;
  EXPECT_EQ(r.findings[0].summary,
            "thread 0: all() returned a result no sequential order explains");
}

}  // namespace
}  // namespace racelab
