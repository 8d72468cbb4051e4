// moodycamel::ConcurrentQueue through the kit, used correctly: several
// threads enqueue and try_dequeue with implicit producers (no tokens). The
// queue finds a thread's implicit producer by the address of a thread_local
// (details::thread_id()), so what it sees as "a thread" must be a real OS
// thread. The adapter is the spec below; the queue is the library's.
#include <concurrentqueue/concurrentqueue.h>

#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "queue_adapter.h"
#include "racelab/gtest.h"
#include "racelab/spec.h"

namespace thirdparty {
namespace {

using racelab::call;
using Queue = moodycamel::ConcurrentQueue<int>;

// The model is a pool, not a FIFO: the queue orders items per producer only,
// and a try_dequeue may miss items another producer is publishing. So push
// always succeeds, and pop returns an item that is in the pool (any of
// them), or empty at any time; the conservation invariant checks, once the
// queue is quiescent, that nothing was lost.
using Pool = std::multiset<int>;

// A pop as the spec declares it, and as the conservation invariant drains.
const auto pop = [](Queue& q) {
  int v = 0;
  return q.try_dequeue(v) ? std::optional<int>(v) : std::nullopt;
};

// Three threads, each enqueueing its own items and dequeueing as many; the
// finale drains the rest.
racelab::Plan mixed(racelab::ProgramSize s) {
  const int n = s == racelab::ProgramSize::kFull ? 200 : 1;
  racelab::Plan p;
  p.threads.resize(s == racelab::ProgramSize::kFull ? 3 : 2);
  for (int t = 0; t < static_cast<int>(p.threads.size()); ++t) {
    for (int i = 0; i < n; ++i) {
      p.threads[t].push_back(call("push", t * 1000 + i));
      p.threads[t].push_back(call("pop"));
    }
  }
  p.finale.assign(3, call("pop"));
  return p;
}

racelab::Spec<Queue, Pool> moodycamel_spec() {
  return racelab::Spec<Queue, Pool>("moodycamel/concurrent_queue")
      .op(
          "push", [](Queue& q, int v) { return q.enqueue(v); },
          racelab::ints(0, 9),
          racelab::judged_by([](Pool& pool, int v, bool pushed) {
            pool.insert(v);
            return pushed;
          }))
      .op("pop", pop,
          racelab::judged_by([](Pool& pool, const std::optional<int>& got) {
            if (!got) return true;
            auto it = pool.find(*got);
            if (it == pool.end()) return false;
            pool.erase(it);
            return true;
          }))
      .invariant("conservation", conservation(pop))
      .without_random_scenario()
      .scenario("enqueue_dequeue", mixed,
                "every thread enqueues and dequeues, implicit producers");
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
  racelab::CheckResult r = moodycamel_spec().check("enqueue_dequeue", options);
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
  racelab::CheckResult r = moodycamel_spec().check("enqueue_dequeue", options);
  ASSERT_FALSE(r.clean()) << r.message;
  EXPECT_TRUE(race_through(r.findings.front(), "get_or_add_implicit_producer"))
      << r.message;
  std::cout << "schedules to the first report: " << r.schedules << "\n"
            << racelab::format_findings(r.findings);

  options.oracles = {racelab::Oracle::kInvariants,
                     racelab::Oracle::kLinearizability};
  racelab::CheckResult values =
      moodycamel_spec().check("enqueue_dequeue", options);
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
  racelab::CheckResult r = moodycamel_spec().check("enqueue_dequeue", options);
  EXPECT_TRUE(r.clean()) << r.message;
  std::cout << "schedules: " << r.schedules << "\n";
}

}  // namespace
}  // namespace thirdparty
