// The store-implementer kit: what a team with its own concurrent store writes
// to get racelab's battery (scenarios, controlled interleavings,
// linearizability, TSan findings) inside its own test binary.
//
// Three pieces, all in namespace racelab:
//
//  1. A family binding F, checked by the concept `racelab::Family`:
//
//       struct RingFamily : racelab::LinearizableBy<RingModel> {
//         using Store = RingStore;          // the interface under test
//         using Op = RingOp;                // one operation, as data
//         using Result = RingResult;        // what it returned
//         static constexpr const char* kName = "ring";
//         static Result execute(Store&, const Op&, racelab::OpContext&,
//                               racelab::History<Op, Result>* nested);
//         static std::string describe(const Op&);       // "push(3)"
//         static std::string describe(const Op&, const Result&);  // "ok"
//         static std::optional<Op> parse(std::string_view);  // inverse
//       };
//
//     check_linearizability comes from the LinearizableBy<Model> base: the
//     model is a racelab::SequentialModel (linearizability.h) whose Input is
//     F::Op and Output is F::Result.
//
//  2. Scenarios: racelab::Scenario<F> (scenario.h), a name, a program per
//     seed and size, and optional invariants.
//
//  3. check_store<F>(factory, scenario, options) -> CheckResult: runs the
//     scenario in controlled mode (one logical thread at a time, on OS
//     threads that pass a baton by default or on fibers: CheckOptions::
//     threads; a strategy, a budget of schedules) or stress mode (free-running
//     OS threads) in a forked child (CheckOptions::isolate: a crash, exit or
//     hang of the store is a finding) and judges it. On
//     failure the result carries the findings, the trace of the (shrunk)
//     failing schedule and the path of the saved schedule file;
//     replay_store<F>() reruns such a file. gtest.h, catch2.h and fuzz_target.h
//     build on this.
//
// Controlled mode needs nothing of the store but a TSan build: its plain
// std::mutex, std::shared_mutex, std::condition_variable and std::atomic
// operations (any pthread lock) are scheduling points by themselves
// (interposed at link time, docs/controlled-mode.md); racelab::Mutex /
// SharedMutex (sync.h) only add names and thread-safety annotations, and
// racelab::yield_point() a point of the store's own. See
// docs/implementer-guide.md, "What controlled mode needs from your store".
#ifndef RACELAB_KIT_H_
#define RACELAB_KIT_H_

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "racelab/defaults.h"
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
#include "racelab/internal/sched/shrink.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/internal/session.h"
#include "racelab/internal/stress_runner.h"

namespace racelab {

// A family binding: the shape every racelab family has (scenarios/*_family.h
// are the built-in ones).
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

// How check_store runs a scenario.
struct CheckOptions {
  Mode mode = Mode::kControlled;
  OracleSet oracles = OracleSet::selectable();
  // Controlled mode: strategy ("pct", "random", "dfs", "plain-dfs"), its
  // parameters, the number of schedules to try, and whether to shrink a
  // failing one.
  // The defaults are racelab's (racelab/defaults.h, docs/defaults.md), the
  // same as explore's and the CLI's.
  std::string strategy = defaults::kStrategy;
  // What logical threads run on (sched::Substrate): real OS threads by
  // default, so thread_local variables, thread ids and per-thread caches
  // (moodycamel's producers, allocators) are per logical thread; fibers are
  // faster and see one thread identity.
  sched::Substrate threads = defaults::kThreads;
  std::uint64_t seed = defaults::kSeed;
  int depth = defaults::kDepth;
  int preemptions = defaults::kPreemptions;
  int budget = defaults::kBudget;
  bool shrink = true;
  // Stress mode: runs of the full-size program, jitter, a reader's pause.
  int stress_runs = defaults::kStressRuns;
  bool jitter = true;
  int pause_us = defaults::kPauseUs;
  // The name of the store in messages and schedule files ("ring/mutex");
  // empty: the family's name.
  std::string store_name;
  // Folder for schedule files; empty: racelab's per-user folder
  // ($XDG_STATE_HOME/racelab/schedules, else ~/.local/state/..., 0700).
  std::string schedule_dir;
  // The folders of the store's own code (absolute, or as the debug
  // information names them): a finding's subject frame is its first frame
  // under one of them. Empty: its first frame outside racelab's folders and
  // outside system and library paths.
  std::vector<std::string> source_roots;
  // Run the check in a forked child (racelab/internal/isolation.h), so that a
  // store that crashes (a signal, abort, an uncaught exception,
  // std::terminate), exits or hangs is a finding of the check (crash, timeout)
  // and this process survives to report it; in controlled mode the schedule in
  // flight is saved. Off: in this process, for a debugger.
  bool isolate = true;
  // Isolated checks: no progress (no scheduling decision, no operation
  // step) for this long is a hang; the child's process group is killed.
  int hang_seconds = 60;
  // A TSan suppressions file (racelab/suppressions.h, docs/suppressions.md):
  // TSan findings whose stacks match a line are dropped and counted in the
  // result; every line must say why. Empty: none. A line without a reason, or
  // a file that cannot be read, throws InputError.
  std::string suppressions;
};

// The verdict of check_store and replay_store: one run of the scenario
// (findings, schedules tried, the shrunk failing schedule with
// its trace, the saved schedule file, a readable message); the engine's
// result of one run, RunObservation (case.h).
using CheckResult = RunObservation;

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
// Reads a schedule file; throws sched::ScheduleFileError or
// std::runtime_error. Returns program lines (setup, threads..., finale).
sched::ScheduleFile read_schedule(const std::string& path,
                                  std::vector<std::string>* program_lines);
// Why the schedule file at `path` (of file.subject x file.scenario) is not
// one of this test's (`store` x `scenario`).
std::string other_test_text(const std::string& path,
                            const sched::ScheduleFile& file,
                            const std::string& store,
                            const std::string& scenario);
// How failure messages name the function that reruns a saved schedule:
// "racelab::replay_store", or, while a ReplayNamedAs lives on this thread,
// the name it gives (a Spec's checks: "racelab::replay_spec").
std::string replay_function_name();
class ReplayNamedAs {
 public:
  explicit ReplayNamedAs(std::string name);
  ~ReplayNamedAs();
  ReplayNamedAs(const ReplayNamedAs&) = delete;
  ReplayNamedAs& operator=(const ReplayNamedAs&) = delete;

 private:
  std::string saved_;
};
// Fills result.message (the failing schedule's trace rendered as a table).
void compose_message(CheckResult& result, const std::string& store,
                     const std::string& scenario, const CheckOptions& options);
// The engine's request for a controlled check.
RunRequest controlled_request(const CheckOptions& options);

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

// The traits of one store under test, the unit the test-framework macros
// (gtest.h, catch2.h, fuzz_target.h) take:
//
//   struct MutexRingTraits {
//     using Family = RingFamily;
//     static constexpr const char* kStoreName = "ring/mutex";  // optional
//     static std::unique_ptr<RingStore> make();
//     static std::vector<racelab::Scenario<RingFamily>> scenarios();
//     static racelab::CheckOptions options();                  // optional
//     // fuzz_target.h only: an operation for logical thread `thread` from
//     // the fuzzer's bytes.
//     static RingOp generate_op(racelab::FuzzBytes& bytes, int thread);
//   };
template <class T>
concept StoreTraits = Family<typename T::Family> && requires {
  { T::make() } -> std::same_as<std::unique_ptr<typename T::Family::Store>>;
  {
    T::scenarios()
    } -> std::convertible_to<std::vector<Scenario<typename T::Family>>>;
};

// The store's name: T::name() or T::kStoreName (const char*,
// std::string_view or std::string), else the family's name.
template <StoreTraits T>
std::string traits_store_name() {
  if constexpr (NamedByFunction<T>) {
    return std::string(std::string_view(T::name()));
  } else if constexpr (requires { std::string_view(T::kStoreName); }) {
    return std::string(std::string_view(T::kStoreName));
  } else {
    return family_name<typename T::Family>();
  }
}

// The traits' base options (T::options() when given), named for the store.
template <StoreTraits T>
CheckOptions traits_options() {
  CheckOptions options;
  if constexpr (requires { T::options(); }) options = T::options();
  if (options.store_name.empty()) options.store_name = traits_store_name<T>();
  return options;
}

// One generated test: a scenario in a mode, judged by one oracle (tsan,
// invariants, linearizability) or by all of them (no oracle named).
struct KitCase {
  int scenario = 0;
  std::string scenario_name;
  Mode mode = Mode::kControlled;
  std::optional<Oracle> oracle;  // nullopt: every selectable oracle

  // "linearizability", or "all".
  std::string oracle_name() const {
    return oracle ? to_string(*oracle) : "all";
  }
  // The oracles the case runs with, for traits that select every oracle
  // (run_kit_case uses the traits' selection for a case of all).
  OracleSet oracles() const {
    return oracle ? OracleSet{*oracle} : OracleSet::selectable();
  }
  // "push_pop_race/controlled/linearizability"
  std::string name() const {
    return scenario_name + "/" + to_string(mode) + "/" + oracle_name();
  }
};

// Every scenario x mode (the scenario's modes) x oracle of a store, the
// oracles the traits select (T::options().oracles) only. With `per_oracle`
// false, one case per scenario x mode judged by all of those oracles.
template <StoreTraits T>
std::vector<KitCase> kit_cases(bool per_oracle = true,
                               std::vector<Mode> only_modes = {}) {
  std::vector<KitCase> cases;
  const std::vector<Scenario<typename T::Family>> scenarios = T::scenarios();
  const OracleSet selected = traits_options<T>().oracles;
  for (int i = 0; i < static_cast<int>(scenarios.size()); ++i) {
    for (Mode mode : scenarios[i].modes) {
      if (!only_modes.empty() && std::find(only_modes.begin(), only_modes.end(),
                                           mode) == only_modes.end()) {
        continue;
      }
      if (!per_oracle) {
        cases.push_back({i, scenarios[i].name, mode, std::nullopt});
        continue;
      }
      for (Oracle oracle :
           {Oracle::kTsan, Oracle::kInvariants, Oracle::kLinearizability}) {
        if (!selected.contains(oracle)) continue;  // the store left it out
        cases.push_back({i, scenarios[i].name, mode, oracle});
      }
    }
  }
  return cases;
}

// Runs one KitCase of a store.
template <StoreTraits T>
CheckResult run_kit_case(const KitCase& c) {
  const std::vector<Scenario<typename T::Family>> scenarios = T::scenarios();
  CheckOptions options = traits_options<T>();
  options.mode = c.mode;
  // One oracle's case runs that oracle; a case of all runs the traits'
  // selection (T::options().oracles), not every selectable oracle.
  if (c.oracle) options.oracles = OracleSet{*c.oracle};
  return check_store<typename T::Family>(&T::make, scenarios.at(c.scenario),
                                         options);
}

// The environment variable that makes the test-framework macros replay a
// schedule file instead of searching: RACELAB_REPLAY=<file> <test binary>
// --gtest_filter=<test>, the command a failing kit test prints.
inline constexpr const char* kReplayVariable = "RACELAB_REPLAY";

// The schedule file to replay ($RACELAB_REPLAY), or "" when none is set.
std::string replay_request();

// Replays `schedule_file` as KitCase `c` of store T: the file must be of
// T's store and of c's scenario, else the result is std::nullopt and
// `*error` says which test the file belongs to. Throws what read_schedule
// throws on a file that cannot be read.
template <StoreTraits T>
std::optional<CheckResult> replay_kit_case(const KitCase& c,
                                           const std::string& schedule_file,
                                           std::string* error) {
  const std::vector<Scenario<typename T::Family>> scenarios = T::scenarios();
  CheckOptions options = traits_options<T>();
  options.oracles = c.oracles();
  const Scenario<typename T::Family>& scenario = scenarios.at(c.scenario);
  std::vector<std::string> lines;
  const sched::ScheduleFile file =
      kit_internal::read_schedule(schedule_file, &lines);
  if (file.subject != options.store_name || file.scenario != scenario.name) {
    *error = kit_internal::other_test_text(schedule_file, file,
                                           options.store_name, scenario.name);
    return std::nullopt;
  }
  return replay_store<typename T::Family>(&T::make, scenario, schedule_file,
                                          options);
}

// One finished test of the test-framework macros, as listeners see it.
struct KitTestRecord {
  std::string test;    // "Racelab/MutexRingTraits_RacelabClean.Clean/..."
  std::string source;  // the test's source file, as the framework names it
  std::string family;  // the family's name
  std::string store;   // the store's name
  KitCase kit_case;
  bool expect_caught = false;  // RACELAB_EXPECT_CAUGHT: passes when caught
  bool passed = false;
  bool replayed = false;  // RACELAB_REPLAY ran a schedule file
  const CheckResult* result = nullptr;
};

// Something told of every finished kit test (racelab_kit_reports installs
// one that writes the reports of $RACELAB_REPORT_DIR). One at a time;
// nullptr removes it. The core itself writes no reports.
using KitListener = void (*)(const KitTestRecord& record);
void set_kit_listener(KitListener listener);
// Tells the listener, if any; what it throws is caught and printed.
void notify_kit_test(const KitTestRecord& record);

// One line per finding: "[data_race/tsan] summary".
std::string format_findings(const std::vector<Finding>& findings);

}  // namespace racelab

#endif  // RACELAB_KIT_H_
