// boost::lockfree::spsc_queue through the kit, used wrongly: TWO producers
// push (it is a single-producer queue) while one consumer pops. Both
// producers can read the same write index, fill the same slot and publish
// the same next index, so one item is lost (or a stale one popped twice).
// The adapter is the spec below; the queue itself is Boost's, unchanged.
#include <boost/lockfree/spsc_queue.hpp>
#include <cstddef>
#include <deque>
#include <iostream>
#include <optional>
#include <string>

#include "queue_adapter.h"
#include "racelab/gtest.h"
#include "racelab/spec.h"

namespace thirdparty {
namespace {

using racelab::call;

constexpr std::size_t kCapacity = 4;
using SpscQueue =
    boost::lockfree::spsc_queue<int, boost::lockfree::capacity<kCapacity>>;

// The sequential specification, with the queue's interface: a FIFO of at
// most kCapacity items; push refuses exactly when full, pop fails exactly
// when empty.
struct Fifo {
  std::deque<int> items;
  bool push(int v) {
    if (items.size() == kCapacity) return false;
    items.push_back(v);
    return true;
  }
  bool pop(int& v) {
    if (items.empty()) return false;
    v = items.front();
    items.pop_front();
    return true;
  }
  bool operator==(const Fifo&) const = default;
};
std::string to_string(const Fifo& f) { return racelab::show(f.items); }

// A pop as the spec declares it, and as the conservation invariant drains.
const auto pop = [](auto& q) {
  int v = 0;
  return q.pop(v) ? std::optional<int>(v) : std::nullopt;
};

// Threads 0 and 1 produce (the misuse), thread 2 consumes; the finale pops
// what is left, so a lost item shows in the history itself.
racelab::Plan two_producers(racelab::ProgramSize s) {
  const int n = s == racelab::ProgramSize::kFull ? 300 : 1;
  racelab::Plan p;
  p.threads.resize(3);
  for (int i = 0; i < n; ++i) {
    p.threads[0].push_back(call("push", 1 + i));
    p.threads[1].push_back(call("push", 1001 + i));
    p.threads[2].push_back(call("pop"));
  }
  p.threads[2].push_back(call("pop"));
  p.finale.assign(kCapacity + 1, call("pop"));
  return p;
}

racelab::Spec<SpscQueue, Fifo> spsc_spec() {
  return racelab::Spec<SpscQueue, Fifo>("boost/spsc_queue")
      .op(
          "push", [](auto& q, int v) { return q.push(v); }, racelab::ints(0, 9))
      .op("pop", pop)
      .invariant("conservation", conservation(pop))
      .without_random_scenario()
      .scenario("two_producers", two_producers,
                "two threads push into a single-producer queue, one pops");
}

// The model is the queue's sequential behaviour (capacity included): one
// thread's calls agree with it step by step (one thread's history is
// linearizable only so). Without this the linearizability verdicts below
// would mean nothing.
TEST(SpscQueue, OneThreadFollowsTheModel) {
  racelab::Plan plan;
  plan.threads = {{call("push", 1), call("push", 2), call("pop"),
                   call("push", 3), call("push", 4), call("push", 5),
                   call("push", 6), call("pop"), call("pop"), call("pop"),
                   call("pop"), call("pop")}};
  racelab::CheckOptions options;
  options.oracles = {racelab::Oracle::kLinearizability};
  racelab::CheckResult r =
      spsc_spec().scenario("one_thread", plan).check("one_thread", options);
  EXPECT_TRUE(r.clean()) << r.message;
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
  racelab::CheckResult r = spsc_spec().check("two_producers", options);
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
  racelab::CheckResult r = spsc_spec().check("two_producers", options);
  EXPECT_TRUE(r.has(racelab::FindingKind::kDataRace)) << r.message;
  std::cout << "tsan: schedules to the first report " << r.schedules << "\n"
            << racelab::format_findings(r.findings);

  options.oracles = {racelab::Oracle::kInvariants,
                     racelab::Oracle::kLinearizability};
  racelab::CheckResult values = spsc_spec().check("two_producers", options);
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
  racelab::CheckResult r = spsc_spec().check("two_producers", options);
  EXPECT_TRUE(r.has(racelab::FindingKind::kNotLinearizable)) << r.message;
  std::cout << "schedules to the first finding: " << r.schedules << "\n"
            << r.message;
}

}  // namespace
}  // namespace thirdparty
