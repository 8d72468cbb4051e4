// Stress mode: the program's threads as real OS threads, released together by
// a barrier, with optional random jitter at operation boundaries. Records the
// history with a monotonic clock read inside each operation.
#ifndef RACELAB_STRESS_RUNNER_H_
#define RACELAB_STRESS_RUNNER_H_

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "racelab/internal/case.h"
#include "racelab/internal/history.h"
#include "racelab/internal/judge_run.h"
#include "racelab/internal/op_context.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/scenario.h"

namespace racelab {

namespace stress_internal {

std::uint64_t monotonic_ns();
// How many of the program's threads are between their start and their last
// operation (relaxed: read only to decide whether a nudge can let anyone in).
std::atomic<int>& running_threads();
// Installs stress mode's hook for racelab::yield_point() and racelab's lock
// acquisitions while a run lasts: a nudge (at one such point in four, the
// thread steps aside until another thread progresses) and, when `enabled`,
// random jitter.
class JitterScope {
 public:
  JitterScope(bool enabled, std::uint64_t seed);
  ~JitterScope();
  JitterScope(const JitterScope&) = delete;
  JitterScope& operator=(const JitterScope&) = delete;
};
// A random sched_yield or short sleep, from a per-thread generator.
void jitter();
// Names the calling OS thread "thread N", so sanitizer reports name the
// logical thread.
void name_this_thread(int thread);

class StressContext final : public OpContext {
 public:
  StressContext(int thread, int pause_us)
      : thread_(thread), pause_us_(pause_us) {}
  int thread() const override { return thread_; }
  void pause() override {
    note_progress();  // a pause is a step of an operation that goes on
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us_));
  }
  std::uint64_t now(Tick) override { return monotonic_ns(); }

 private:
  int thread_;
  int pause_us_;
};

}  // namespace stress_internal

// Runs `scenario`'s program once against a fresh store from `make_store`.
template <class F>
RunObservation run_stress(const Scenario<F>& scenario,
                          const StoreFactory<F>& make_store,
                          const RunRequest& request) {
  using Op = typename F::Op;
  using Result = typename F::Result;
  using EventT = Event<Op, Result>;

  Program<Op> program = scenario.program(request.seed, ProgramSize::kFull);
  std::unique_ptr<typename F::Store> store = make_store();
  stress_internal::JitterScope jitter_scope(request.jitter, request.seed);

  auto run_op = [&](const Op& op, stress_internal::StressContext& ctx,
                    std::vector<EventT>& out) {
    run_operation<F>(*store, op, ctx, out);
  };

  History<Op, Result> history;
  stress_internal::StressContext setup_ctx(kSetupThread, request.pause_us);
  for (const Op& op : program.setup) run_op(op, setup_ctx, history);

  const int n = static_cast<int>(program.threads.size());
  std::vector<std::vector<EventT>> per_thread(n);
  std::barrier start(n);
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      stress_internal::name_this_thread(t);
      stress_internal::StressContext ctx(t, request.pause_us);
      stress_internal::running_threads().fetch_add(1,
                                                   std::memory_order_relaxed);
      // The barrier's atomics are the harness's, not lock points where a
      // thread would be nudged aside (and wait for threads still arriving).
      interpose_internal::enter_harness();
      start.arrive_and_wait();
      interpose_internal::leave_harness();
      for (const Op& op : program.threads[t]) {
        if (request.jitter) stress_internal::jitter();
        run_op(op, ctx, per_thread[t]);
      }
      stress_internal::running_threads().fetch_sub(1,
                                                   std::memory_order_relaxed);
    });
  }
  for (std::thread& th : threads) th.join();

  RunObservation observation;
  for (auto& events : per_thread) {
    observation.operations += static_cast<int>(events.size());
    for (EventT& e : events) history.push_back(std::move(e));
  }
  note_progress();  // the threads are done
  stress_internal::StressContext finale_ctx(n, request.pause_us);
  for (const Op& op : program.finale) run_op(op, finale_ctx, history);
  // The process's sanitizer findings are taken by whoever runs the stress run
  // (the child, the kit), after its threads are gone.
  judge_run<F>(scenario, program, history, store.get(), request.oracles,
               nullptr, observation.findings);
  forget_history(history);
  return observation;
}

}  // namespace racelab

#endif  // RACELAB_STRESS_RUNNER_H_
