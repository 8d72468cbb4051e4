// The engine's typed binding of a store: a Family (Store, Op, Result,
// execute, describe, parse, check_linearizability), scenarios of it
// (scenario.h), and check_store / replay_store, which run one scenario in
// controlled or stress mode and judge it. A Spec (spec.h) is erased into one
// such family (src/kit/spec.cc); users declare Specs, not families. The
// engine's own tests use this header to reach corners a Spec does not.
#ifndef RACELAB_INTERNAL_FAMILY_H_
#define RACELAB_INTERNAL_FAMILY_H_

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/history.h"
#include "racelab/internal/isolation.h"
#include "racelab/internal/linearizability.h"
#include "racelab/internal/op_context.h"
#include "racelab/internal/operation_history.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/scenario.h"
#include "racelab/internal/sched/schedule_file.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/session.h"
#include "racelab/internal/stress_runner.h"
#include "racelab/kit.h"

namespace racelab {

namespace kit_internal {

// TSan findings since the last call when `enabled` (and the build has TSan);
// else drops them. Findings the check's suppressions cover are dropped and
// counted.
std::vector<Finding> take_sanitizer_findings(bool enabled);
// Runs `check` (the raw check, in this process's terms) in a forked child
// when options.isolate, else here; turns a child that crashed, exited, hung
// or ended without a result into a crash or timeout finding (with the
// schedule in flight in controlled mode); saves a failing controlled
// schedule unless `replayed` names the file being replayed; composes the
// message. An InputError of the check is rethrown here.
CheckResult finish_check(const std::function<CheckResult()>& check,
                         const CheckOptions& options, const std::string& store,
                         const std::string& scenario,
                         const std::string& replayed);
// Starts a check's bookkeeping: forgets earlier reports and undecided
// searches, loads options.suppressions (throws InputError).
void begin_check(const CheckOptions& options);
// Ends it: the undecided searches and the suppressed findings since
// begin_check go into `result`.
void end_check(CheckResult& result);
// "<dir>/racelab-<store>-<scenario>.schedule", with unsafe characters of the
// names replaced by '_'.
std::string schedule_path(const CheckOptions& options, std::string_view store,
                          std::string_view scenario);
// Writes a schedule file; returns the path, or "" when it cannot be written,
// with the reason in *why ("no folder to save it in", the I/O error, ...).
std::string save_schedule(const std::string& path, const std::string& store,
                          const std::string& scenario,
                          const CheckOptions& options,
                          std::uint64_t program_seed,
                          const std::vector<std::string>& program_lines,
                          const std::vector<int>& decisions, std::string* why);
// Fills result.message (the failing schedule's trace rendered as a table).
void compose_message(CheckResult& result, const std::string& store,
                     const std::string& scenario, const CheckOptions& options);
// The engine's request for a controlled check.
RunRequest controlled_request(const CheckOptions& options);

}  // namespace kit_internal

// A family binding: the shape the engine runs (a Spec's erased family, the
// engine tests' small families).
template <class F>
concept Family = requires {
  typename F::Store;
  typename F::Op;
  typename F::Result;
}
&&(NamedByFunction<F> || NamedByConstant<F>)&&std::
    default_initializable<typename F::Result>&& requires(
        typename F::Store& store, const typename F::Op& op,
        const typename F::Result& result, OpContext& ctx,
        History<typename F::Op, typename F::Result>* nested,
        const History<typename F::Op, typename F::Result>& history,
        std::vector<Finding>& findings, std::string_view text) {
  { F::execute(store, op, ctx, nested) } -> std::same_as<typename F::Result>;
  { F::describe(op) } -> std::convertible_to<std::string>;
  { F::describe(op, result) } -> std::convertible_to<std::string>;
  { F::parse(text) } -> std::same_as<std::optional<typename F::Op>>;
  F::check_linearizability(history, findings);
};

// The model's initial state: M::initial() when it has one, else State{}.
template <SequentialModel M>
typename M::State initial_state() {
  if constexpr (requires { M::initial(); }) {
    return M::initial();
  } else {
    return typename M::State{};
  }
}

namespace kit_internal {

// Linearizability searches that ran out of steps before deciding, since the
// last take_inconclusive(): neither clean nor a finding, so they are
// counted beside the findings (RunObservation::inconclusive_linearizability)
// and the kit's message and clean-expecting tests say so.
void note_inconclusive(const std::string& part, const std::string& explanation);
struct Inconclusive {
  int count = 0;
  std::string first;  // the first one's explanation
};
Inconclusive take_inconclusive();

// How a finding's summary names the operation that has no place: the call
// alone when the model can describe it (M::describe(input), useful when
// results are long, like an iteration's entries), else call and result.
template <SequentialModel M>
std::string describe_stuck(const Operation<M>& op) {
  if constexpr (requires { M::describe(op.input); }) {
    return std::string(M::describe(op.input));
  } else {
    return std::string(M::describe(op.input, op.output));
  }
}

// One history (a whole run's, or one part's of a partitioned model, as the
// addresses of its events) against M; `part` prefixes the summary
// ("session 's1': ") or is empty.
template <SequentialModel M, class Events>
void check_one_history(const Events& events, const std::string& part,
                       std::vector<Finding>& findings) {
  // The model may be the store's own class, replayed here on one thread
  // after the run: what TSan reports of the replay (a lock-order inversion
  // of the model's calls) is no finding of the store's run.
  ReportsDropped model_replay;
  typename M::State initial = initial_state<M>();
  std::vector<Operation<M>> ops =
      to_operations<M>(events, [&](const auto& op, const auto& result) {
        typename M::State next;
        if (M::step(initial, op, result, &next)) initial = std::move(next);
      });
  // M::kMaxSearchSteps, when the model sets it, bounds the search instead of
  // the default.
  std::size_t max_steps = kDefaultLinearizabilityMaxSteps;
  if constexpr (requires { M::kMaxSearchSteps; }) {
    max_steps = M::kMaxSearchSteps;
  }
  LinearizabilityResult r = check_linearizable<M>(ops, initial, max_steps);
  if (r.exhausted_budget) note_inconclusive(part, r.explanation);
  if (!r.is_violation()) return;
  const Operation<M>& stuck = ops[*r.stuck_operation];
  findings.push_back({FindingKind::kNotLinearizable,
                      Oracle::kLinearizability,
                      part + "thread " + std::to_string(stuck.thread) + ": " +
                          describe_stuck<M>(stuck) +
                          " returned a result no sequential order explains",
                      r.explanation,
                      std::nullopt,
                      {}});
}

template <class Key>
std::string partition_text(const Key& key) {
  if constexpr (std::is_convertible_v<const Key&, std::string_view>) {
    return std::string(std::string_view(key));
  } else {
    return std::to_string(key);
  }
}

}  // namespace kit_internal

// Checks a run's history against the sequential model M and appends one
// not_linearizable finding when no sequential order explains it. Setup
// operations fold into the initial state; operations nested in a callback
// count as a thread of their own. When M is a PartitionedModel
// (linearizability.h), the history is split by M::partition and each part is
// checked on its own, with one finding per part that fails.
template <SequentialModel M, class Op, class Result>
void check_history_with_model(const History<Op, Result>& history,
                              std::vector<Finding>& findings) {
  if constexpr (PartitionedModel<M>) {
    using Key = std::remove_cvref_t<decltype(M::partition(history[0].op))>;
    std::map<Key, std::vector<const Event<Op, Result>*>> parts;
    for (const auto& e : history) parts[M::partition(e.op)].push_back(&e);
    std::string name = "part";
    if constexpr (requires { M::kPartitionName; }) name = M::kPartitionName;
    for (const auto& [key, part] : parts) {
      kit_internal::check_one_history<M>(
          part,
          name + " '" + kit_internal::partition_text(key) + "': ", findings);
    }
  } else {
    kit_internal::check_one_history<M>(history, "", findings);
  }
}

// Base class of a family binding that gives it check_linearizability from a
// sequential model, so that nobody hand-writes it:
//   struct RingFamily : racelab::LinearizableBy<RingModel> { ... };
template <SequentialModel M>
struct LinearizableBy {
  using Model = M;
  template <class Op, class Result>
  static void check_linearizability(const History<Op, Result>& history,
                                    std::vector<Finding>& findings) {
    check_history_with_model<M>(history, findings);
  }
};

namespace kit_internal {

template <class F>
std::string store_name(const CheckOptions& options) {
  return options.store_name.empty() ? family_name<F>() : options.store_name;
}

template <Family F>
RunObservation one_schedule(const Scenario<F>& scenario,
                            const StoreFactory<F>& factory,
                            const Program<typename F::Op>& program,
                            OracleSet oracles,
                            sched::ControlledScheduler& scheduler,
                            sched::Strategy& strategy) {
  const bool tsan = oracles.contains(Oracle::kTsan);
  return run_schedule<F>(scenario, factory, program, oracles, scheduler,
                         strategy,
                         [tsan] { return take_sanitizer_findings(tsan); });
}

// The engine's search (controlled_internal::explore, as the CLI's child runs
// it) in this process; finish_check saves a failing schedule.
template <Family F>
CheckResult check_controlled(const StoreFactory<F>& factory,
                             const Scenario<F>& scenario,
                             const CheckOptions& options) {
  begin_check(options);  // forgets reports of earlier checks
  const bool tsan = options.oracles.contains(Oracle::kTsan);
  CheckResult result =
      run_controlled<F>(scenario, factory, controlled_request(options),
                        [tsan] { return take_sanitizer_findings(tsan); });
  end_check(result);
  return result;
}

template <Family F>
CheckResult check_stress(const StoreFactory<F>& factory,
                         const Scenario<F>& scenario,
                         const CheckOptions& options) {
  CheckResult result;
  begin_check(options);
  for (int run = 0; run < options.stress_runs; ++run) {
    RunRequest request;
    request.mode = Mode::kStress;
    request.seed = options.seed + static_cast<std::uint64_t>(run);
    request.run_index = run;
    request.jitter = options.jitter;
    request.pause_us = options.pause_us;
    request.oracles = options.oracles;
    isolation::begin_schedule(run, nullptr);  // the run in flight
    RunObservation obs = run_stress<F>(scenario, factory, request);
    ++result.runs;
    for (Finding& f :
         take_sanitizer_findings(options.oracles.contains(Oracle::kTsan))) {
      obs.findings.push_back(std::move(f));
    }
    if (!obs.findings.empty()) {
      result.findings = std::move(obs.findings);
      break;
    }
  }
  end_check(result);
  return result;
}

}  // namespace kit_internal

// Runs `scenario` against stores from `factory` and judges it with
// `options.oracles`, in a forked child unless options.isolate is off: a
// store that crashes (a signal, abort, an uncaught exception), exits, ends
// without a result or makes no progress for options.hang_seconds is a crash
// or timeout finding, with the schedule in flight saved in controlled mode.
// Controlled mode stops at the first failing schedule, shrinks it (its
// preemptions, then its program: threads and operations the failure does not
// need are dropped), saves it (CheckResult::schedule_file) and records its
// trace; stress mode stops at the first run with a finding. Each check has a
// Session of its own (session.h): checks one after the other in one process do
// not see each other's state; a check started inside another throws
// std::logic_error.
template <Family F>
CheckResult check_store(const StoreFactory<F>& factory,
                        const Scenario<F>& scenario,
                        const CheckOptions& options = {}) {
  Session session;
  set_source_roots(options.source_roots);
  return kit_internal::finish_check(
      [&] {
        return options.mode == Mode::kControlled
                   ? kit_internal::check_controlled<F>(factory, scenario,
                                                       options)
                   : kit_internal::check_stress<F>(factory, scenario, options);
      },
      options, kit_internal::store_name<F>(options), scenario.name, "");
}

// Replays a schedule file written by check_store (its program and decisions)
// against stores from `factory`. Lenient: where the store's scheduling points
// differ from the recorded ones (another store, changed code) the replay
// falls back to running the current thread on, and the message says so.
template <Family F>
CheckResult replay_store(const StoreFactory<F>& factory,
                         const Scenario<F>& scenario,
                         const std::string& schedule_file,
                         const CheckOptions& options = {}) {
  Session session;
  set_source_roots(options.source_roots);
  std::vector<std::string> lines;
  sched::ScheduleFile file = kit_internal::read_schedule(schedule_file, &lines);
  CheckOptions once = options;
  once.mode = Mode::kControlled;
  RunRequest request = kit_internal::controlled_request(once);
  request.seed = file.seed;
  request.replay_program = std::move(lines);
  request.replay_decisions = file.decisions;
  request.lenient_replay = true;
  const bool tsan = options.oracles.contains(Oracle::kTsan);
  return kit_internal::finish_check(
      [&] {
        kit_internal::begin_check(once);
        CheckResult result = run_controlled<F>(
            scenario, factory, request,
            [tsan] { return kit_internal::take_sanitizer_findings(tsan); });
        kit_internal::end_check(result);
        return result;
      },
      once, kit_internal::store_name<F>(options), scenario.name, schedule_file);
}

}  // namespace racelab

#endif  // RACELAB_INTERNAL_FAMILY_H_
