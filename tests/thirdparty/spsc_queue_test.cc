// boost::lockfree::spsc_queue through the kit, used wrongly: TWO producers
// push (it is a single-producer queue) while one consumer pops. Both
// producers can read the same write index, fill the same slot and publish
// the same next index, so one item is lost (or a stale one popped twice).
// The adapter is the family below; the queue itself is Boost's, unchanged.
#include <boost/lockfree/spsc_queue.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "queue_adapter.h"
#include "racelab/gtest.h"

namespace thirdparty {
namespace {

constexpr int kCapacity = 4;
using SpscQueue =
    boost::lockfree::spsc_queue<int, boost::lockfree::capacity<kCapacity>>;

struct SpscFamily : racelab::LinearizableBy<BoundedFifoModel<kCapacity>> {
  using Store = SpscQueue;
  using Op = QueueOp;
  using Result = QueueResult;
  static constexpr const char* kName = "boost/spsc_queue";

  static Result execute(Store& q, const Op& op, racelab::OpContext&,
                        racelab::History<Op, Result>*) {
    Result r;
    int v = 0;
    if (op.kind == Op::Kind::kPush) {
      r.pushed = q.push(op.value);
    } else if (q.pop(v)) {
      r.popped = v;
    }
    return r;
  }
  static std::string describe(const Op& op) { return describe_op(op); }
  static std::string describe(const Op& op, const Result& r) {
    return describe_result(op, r);
  }
  static std::optional<Op> parse(std::string_view t) { return parse_op(t); }
};
static_assert(racelab::Family<SpscFamily>);

std::unique_ptr<SpscQueue> make_queue() {
  return std::make_unique<SpscQueue>();
}

std::optional<int> drain(SpscQueue& q) {
  int v = 0;
  return q.pop(v) ? std::optional<int>(v) : std::nullopt;
}

// Threads 0 and 1 produce (the misuse), thread 2 consumes; the finale pops
// what is left, so a lost item shows in the history itself.
racelab::Program<QueueOp> two_producers(std::uint64_t, racelab::ProgramSize s) {
  const int n = s == racelab::ProgramSize::kFull ? 300 : 1;
  racelab::Program<QueueOp> p;
  p.threads.resize(3);
  for (int i = 0; i < n; ++i) {
    p.threads[0].push_back(push_op(1 + i));
    p.threads[1].push_back(push_op(1001 + i));
    p.threads[2].push_back(pop_op());
  }
  p.threads[2].push_back(pop_op());
  for (int i = 0; i < kCapacity + 1; ++i) p.finale.push_back(pop_op());
  return p;
}

racelab::Scenario<SpscFamily> two_producers_scenario() {
  return {"two_producers",
          "two threads push into a single-producer queue, one pops",
          two_producers,
          [](const racelab::Program<QueueOp>&,
             const racelab::History<QueueOp, QueueResult>& history,
             SpscQueue& q, std::vector<racelab::Finding>& findings) {
            check_conservation<SpscQueue>(history, q, drain, findings);
          }};
}

// The model is the queue's sequential behaviour (capacity included): one
// thread's calls agree with it step by step. Without this the
// linearizability verdicts below would mean nothing.
TEST(SpscQueue, OneThreadFollowsTheModel) {
  using Model = BoundedFifoModel<kCapacity>;
  SpscQueue q;
  Model::State state;
  racelab::History<QueueOp, QueueResult>* no_nested = nullptr;
  struct : racelab::OpContext {
    int thread() const override { return 0; }
    void pause() override {}
    std::uint64_t now(racelab::Tick) override { return 0; }
  } ctx;
  const std::vector<QueueOp> ops = {
      push_op(1), push_op(2), pop_op(), push_op(3), push_op(4), push_op(5),
      push_op(6), pop_op(),   pop_op(), pop_op(),   pop_op(),   pop_op()};
  for (const QueueOp& op : ops) {
    const QueueResult r = SpscFamily::execute(q, op, ctx, no_nested);
    Model::State next;
    ASSERT_TRUE(Model::step(state, op, r, &next))
        << Model::describe(op, r) << " from " << Model::describe(state);
    state = next;
  }
  EXPECT_TRUE(state.empty());
}

// Stress mode (real threads, TSan): the two producers' unsynchronized
// writes of one slot are a data race, and the items they lose break the
// model. Either finding is the misuse caught. Without TSan a lost item
// needs the two pushes to overlap within a few instructions, which free
// threads hardly ever do: no verdict to assert.
TEST(SpscQueue, TwoProducersCaughtInStressMode) {
  if (!racelab::built_with_tsan()) {
    GTEST_SKIP() << "stress mode catches this misuse through TSan";
  }
  racelab::CheckOptions options;
  options.mode = racelab::Mode::kStress;
  options.stress_runs = 20;
  racelab::CheckResult r = racelab::check_store<SpscFamily>(
      &make_queue, two_producers_scenario(), options);
  EXPECT_FALSE(r.clean()) << "runs: " << r.runs << "\n" << r.message;
  std::cout << "runs to the first finding: " << r.runs << "\n"
            << racelab::format_findings(r.findings);
}

// Controlled mode on fibers. std::atomic operations are scheduling points
// there too (interposed __tsan_atomic*), so a producer can be preempted
// between its load of the write index and its store, and both oracles catch
// the misuse: TSan the unordered slot accesses, the value oracles the item
// that one push overwrote. Each is checked on its own, so that neither
// finding stops the search for the other.
TEST(SpscQueue, TwoProducersCaughtOnFibers) {
  if (!racelab::built_with_tsan()) {
    GTEST_SKIP() << "the finding is TSan's";
  }
  racelab::CheckOptions options;
  options.threads = racelab::sched::Substrate::kFibers;
  options.budget = 300;
  options.oracles = {racelab::Oracle::kTsan};
  racelab::CheckResult r = racelab::check_store<SpscFamily>(
      &make_queue, two_producers_scenario(), options);
  EXPECT_TRUE(r.has(racelab::FindingKind::kDataRace)) << r.message;
  std::cout << "tsan: schedules to the first report " << r.schedules << "\n"
            << racelab::format_findings(r.findings);

  options.oracles = {racelab::Oracle::kInvariants,
                     racelab::Oracle::kLinearizability};
  racelab::CheckResult values = racelab::check_store<SpscFamily>(
      &make_queue, two_producers_scenario(), options);
  EXPECT_FALSE(values.clean()) << values.message;
  std::cout << "invariants, linearizability: schedules " << values.schedules
            << "\n"
            << racelab::format_findings(values.findings);
}

// Controlled mode on OS threads, where every std::atomic operation inside
// push and pop is a scheduling point: the search can stop one producer
// between its load of the write index and its store, let the other push
// into the same slot, and the lost item breaks the model. TSan is left out
// of the oracles: its report of the consumer's unordered slot read (see
// above) comes first and stops the search (with every oracle: at schedule 2,
// the race alone), and what this test asserts is that the value oracles
// catch the misuse on their own.
TEST(SpscQueue, TwoProducersLoseAnItemOnOsThreads) {
  if (!racelab::built_with_tsan()) {
    GTEST_SKIP() << "atomics are scheduling points only in a TSan build "
                    "(the interposed __tsan_atomic* entry points)";
  }
  racelab::CheckOptions options;
  options.threads = racelab::sched::Substrate::kOsThreads;
  options.budget = 2000;
  options.oracles = {racelab::Oracle::kInvariants,
                     racelab::Oracle::kLinearizability};
  racelab::CheckResult r = racelab::check_store<SpscFamily>(
      &make_queue, two_producers_scenario(), options);
  EXPECT_TRUE(r.has(racelab::FindingKind::kNotLinearizable)) << r.message;
  std::cout << "schedules to the first finding: " << r.schedules << "\n"
            << r.message;
}

}  // namespace
}  // namespace thirdparty
