// What every mode does around a family's operations: run one operation and
// record it in the history (run_operation), and judge a finished run with the
// oracles in their one order (judge_run). Stress mode, controlled mode, the
// kit and the fuzz targets all use these two.
#ifndef RACELAB_JUDGE_RUN_H_
#define RACELAB_JUDGE_RUN_H_

#include <functional>
#include <utility>
#include <vector>

#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/internal/go_map_oracle.h"
#include "racelab/internal/history.h"
#include "racelab/internal/op_context.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/scenario.h"
#include "racelab/internal/sched/scheduler.h"

namespace racelab {

// Runs `op` on `store` from `ctx`'s thread and appends its event (call and
// return times from ctx.now()) to `out`, followed by the events of the
// operations it issued from inside its callback.
template <class F>
void run_operation(typename F::Store& store, const typename F::Op& op,
                   OpContext& ctx,
                   History<typename F::Op, typename F::Result>& out) {
  using EventT = Event<typename F::Op, typename F::Result>;
  // The history's copy of the operation is the harness's bookkeeping: the
  // atomics it may use (a shared_ptr's count) are no scheduling points.
  EventT event{ctx.thread(),
               false,
               sched::unwatched([&] { return op; }),
               typename F::Result{},
               ctx.now(Tick::kCall),
               0};
  History<typename F::Op, typename F::Result> nested;
  event.result = F::execute(store, op, ctx, &nested);
  event.ret = ctx.now(Tick::kReturn);
  event.effect_order = ctx.effect_order();
  note_progress();
  out.push_back(std::move(event));
  for (EventT& e : nested) out.push_back(std::move(e));
}

// Frees a judged run's events where TSan does not watch: they are the
// harness's copies, and the counts of the shared values they hold (a declared
// call's arguments, its result) change unseen (sched::HarnessScope).
template <class Op, class Result>
void forget_history(History<Op, Result>& history) {
  sched::HarnessScope harness;
  History<Op, Result>().swap(history);
}

// Judges a finished run, appending to `findings` in this order: the
// scenario's invariants and the family's linearizability check (only when
// `store` is given: the run completed, so its history and state are whole),
// the GoMap checks, then the sanitizer findings of the run from
// `take_sanitizer_findings` (when set). Each oracle only when `oracles` has it.
template <class F>
void judge_run(
    const Scenario<F>& scenario, const Program<typename F::Op>& program,
    const History<typename F::Op, typename F::Result>& history,
    typename F::Store* store, OracleSet oracles,
    const std::function<std::vector<Finding>()>& take_sanitizer_findings,
    std::vector<Finding>& findings) {
  if (store != nullptr) {
    note_progress();  // the run is over; the oracles' phase starts
    if (oracles.contains(Oracle::kInvariants) && scenario.check)
      scenario.check(program, history, *store, findings);
    note_progress();
    if (oracles.contains(Oracle::kLinearizability)) {
      // The search reads the recorded history and steps models of its own;
      // it touches nothing under test, so TSan need not watch it (the
      // instrumentation's bookkeeping was most of its cost).
      sched::HarnessScope off_the_instrumented_path;
      F::check_linearizability(history, findings);
    }
    note_progress();
  }
  collect_go_map_findings(oracles.contains(Oracle::kGomap), findings);
  if (take_sanitizer_findings) {
    for (Finding& f : take_sanitizer_findings())
      findings.push_back(std::move(f));
  }
}

}  // namespace racelab

#endif  // RACELAB_JUDGE_RUN_H_
