// moodycamel::ConcurrentQueue through the kit, used correctly: several
// threads enqueue and try_dequeue with implicit producers (no tokens). The
// queue finds a thread's implicit producer by the address of a thread_local
// (details::thread_id()), so what it sees as "a thread" must be a real OS
// thread. The adapter is the family below; the queue is the library's.
#include <concurrentqueue/concurrentqueue.h>

#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "queue_adapter.h"
#include "racelab/gtest.h"

namespace thirdparty {
namespace {

using Queue = moodycamel::ConcurrentQueue<int>;

// The model is a pool, not a FIFO: the queue orders items per producer only,
// and a try_dequeue may miss items another producer is publishing.
struct MoodycamelFamily : racelab::LinearizableBy<PoolModel> {
  using Store = Queue;
  using Op = QueueOp;
  using Result = QueueResult;
  static constexpr const char* kName = "moodycamel/concurrent_queue";

  static Result execute(Store& q, const Op& op, racelab::OpContext&,
                        racelab::History<Op, Result>*) {
    Result r;
    int v = 0;
    if (op.kind == Op::Kind::kPush) {
      r.pushed = q.enqueue(op.value);
    } else if (q.try_dequeue(v)) {
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
static_assert(racelab::Family<MoodycamelFamily>);

std::unique_ptr<Queue> make_queue() { return std::make_unique<Queue>(); }

std::optional<int> drain(Queue& q) {
  int v = 0;
  return q.try_dequeue(v) ? std::optional<int>(v) : std::nullopt;
}

// Three threads, each enqueueing its own items and dequeueing as many; the
// finale drains the rest.
racelab::Program<QueueOp> mixed(std::uint64_t, racelab::ProgramSize s) {
  const int n = s == racelab::ProgramSize::kFull ? 200 : 1;
  racelab::Program<QueueOp> p;
  p.threads.resize(s == racelab::ProgramSize::kFull ? 3 : 2);
  for (int t = 0; t < static_cast<int>(p.threads.size()); ++t) {
    for (int i = 0; i < n; ++i) {
      p.threads[t].push_back(push_op(t * 1000 + i));
      p.threads[t].push_back(pop_op());
    }
  }
  for (int i = 0; i < 3; ++i) p.finale.push_back(pop_op());
  return p;
}

racelab::Scenario<MoodycamelFamily> mixed_scenario() {
  return {"enqueue_dequeue",
          "every thread enqueues and dequeues, implicit producers", mixed,
          [](const racelab::Program<QueueOp>&,
             const racelab::History<QueueOp, QueueResult>& history, Queue& q,
             std::vector<racelab::Finding>& findings) {
            check_conservation<Queue>(history, q, drain, findings);
          }};
}

// Whether a finding is a race one of whose stacks runs through `function`.
bool race_through(const racelab::Finding& f, std::string_view function) {
  if (f.kind != racelab::FindingKind::kDataRace) return false;
  for (const racelab::Access& a : f.accesses) {
    for (const racelab::Frame& frame : a.stack) {
      if (frame.function.find(function) != std::string::npos) return true;
    }
  }
  return false;
}

// Real threads, each with its own implicit producer: no lost or invented
// item and, with tsan_suppressions.txt (the fence-ordered slot reuse that
// TSan cannot see), no race.
TEST(MoodycamelQueue, CleanInStressMode) {
  racelab::CheckOptions options;
  options.mode = racelab::Mode::kStress;
  options.stress_runs = 10;
  racelab::CheckResult r = racelab::check_store<MoodycamelFamily>(
      &make_queue, mixed_scenario(), options);
  EXPECT_TRUE(r.clean()) << r.message;
  EXPECT_EQ(r.runs, options.stress_runs);
}

// Controlled mode on fibers: every logical thread runs on the one OS thread
// of the check, so all of them have the same details::thread_id() (the
// address of one thread_local) and share one implicit producer, a
// sub-queue only one OS thread may fill. TSan is told each fiber is a thread
// of its own, so the producer's plain fields (the hash entry's value,
// tailBlock), written by one "thread" and read by another, are reported as
// races; and since std::atomic operations are scheduling points on fibers
// too, two fibers are preempted inside that one producer's enqueue and an
// item is lost. A real program, one producer per OS thread, has neither:
// see CleanOnOsThreads.
TEST(MoodycamelQueue, FibersShareOneImplicitProducer) {
  if (!racelab::built_with_tsan()) {
    GTEST_SKIP() << "the false race is TSan's";
  }
  racelab::CheckOptions options;
  options.threads = racelab::sched::Substrate::kFibers;
  options.budget = 50;
  options.oracles = {racelab::Oracle::kTsan};
  racelab::CheckResult r = racelab::check_store<MoodycamelFamily>(
      &make_queue, mixed_scenario(), options);
  ASSERT_FALSE(r.clean()) << r.message;
  EXPECT_TRUE(race_through(r.findings.front(), "get_or_add_implicit_producer"))
      << r.message;
  std::cout << "schedules to the first report: " << r.schedules << "\n"
            << racelab::format_findings(r.findings);

  options.oracles = {racelab::Oracle::kInvariants,
                     racelab::Oracle::kLinearizability};
  racelab::CheckResult values = racelab::check_store<MoodycamelFamily>(
      &make_queue, mixed_scenario(), options);
  EXPECT_FALSE(values.clean()) << values.message;
  std::cout << "invariants, linearizability: schedules " << values.schedules
            << "\n"
            << racelab::format_findings(values.findings);
}

// Controlled mode on OS threads: each logical thread is a real thread with
// its own thread_local, hence its own implicit producer, and the atomics
// inside enqueue and try_dequeue are scheduling points. Correct use must be
// clean by every oracle (with tsan_suppressions.txt for the fences).
TEST(MoodycamelQueue, CleanOnOsThreads) {
  racelab::CheckOptions options;
  options.threads = racelab::sched::Substrate::kOsThreads;
  options.budget = 200;
  racelab::CheckResult r = racelab::check_store<MoodycamelFamily>(
      &make_queue, mixed_scenario(), options);
  EXPECT_TRUE(r.clean()) << r.message;
  std::cout << "schedules: " << r.schedules << "\n";
}

}  // namespace
}  // namespace thirdparty
