// Controlled mode: the program's threads run one at a time, on real OS threads
// that pass the scheduler's baton (racelab's default, defaults::kThreads) or
// as fibers of one OS thread (RunRequest::threads), and a strategy decides
// every switch, so a run is deterministic and replayable and ThreadSanitizer
// still reports races between the logical threads. A case in
// controlled mode tries schedules until one fails (or the budget runs out),
// shrinks the failing schedule to the fewest preemptions that still fail,
// shrinks its program (threads and operations the failure does not need are
// dropped) and the schedule again, and replays the result once more to record
// its trace.
#ifndef RACELAB_CONTROLLED_RUNNER_H_
#define RACELAB_CONTROLLED_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/case.h"
#include "racelab/internal/go_map_oracle.h"
#include "racelab/internal/history.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/isolation.h"
#include "racelab/internal/judge_run.h"
#include "racelab/internal/op_context.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/scenario.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/internal/sched/strategy.h"
#include "racelab/sync.h"

namespace racelab {

namespace controlled_internal {

// The logical clock of a controlled run: every call and return takes the next
// tick, so the history's times are unique and strictly increasing. Relaxed
// atomics: the clock must not add happens-before between logical threads.
std::uint64_t next_tick(Tick tick);
void reset_clock();

class ControlledContext final : public OpContext {
 public:
  // Operations run after the run (the finale) take effect after all of its
  // steps.
  static constexpr std::uint64_t kAfterTheRun = UINT64_MAX;

  explicit ControlledContext(int thread, std::uint64_t effect_outside_run = 0)
      : thread_(thread), effect_outside_run_(effect_outside_run) {}
  int thread() const override { return thread_; }
  // A pause touches nothing another thread can observe: what the step after
  // it reads, it reads under the synchronization the scheduler sees (or the
  // program has a data race, which ThreadSanitizer reports), so it commutes
  // with every other step (sched::DfsStrategy).
  void pause() override {
    yield_point("pause", PointAccess::none(), PointKind::kPause);
  }
  std::uint64_t now(Tick tick) override { return next_tick(tick); }
  std::uint64_t effect_order() override {
    if (sched::ControlledScheduler::current_thread() < 0) {
      return effect_outside_run_;
    }
    return sched::ControlledScheduler::last_store_step();
  }

 private:
  int thread_;
  std::uint64_t effect_outside_run_;
};

// The observation of one schedule (run_schedule): its findings, operations
// and recorded schedule (decisions, preemptions, trace, decision operations;
// the program is left to the caller, who knows its encoding), and whether the
// strategy has more schedules to try.
RunObservation observe_schedule(sched::RunResult run,
                                std::vector<Finding> findings, int operations);

// Runs one schedule of the program for `program_seed` (or of the recorded
// program, when given) under `strategy`: the engine's one type-erased view
// of a family, so that the search below is not a template.
using ScheduleRunner = std::function<RunObservation(
    std::uint64_t program_seed,
    const std::vector<std::string>* recorded_program,
    sched::Strategy& strategy)>;
// Thrown by a ScheduleRunner whose schedule a stop request cut short (SIGINT
// or SIGTERM of racelab: the run says nothing about the program). explore()
// ends there: during the search as an exception to its caller, during the
// shrink of a finding by reporting the finding as found.
struct ScheduleStopped {};

// Runs one schedule on one worker of a search split over workers (a
// ScheduleRunner bound to the worker's own process, channel or store).
using WorkerRunner = std::function<RunObservation(std::uint64_t program_seed,
                                                  sched::Strategy& strategy)>;
// The encoded program for a seed: setup line, one line per thread, finale line.
using ProgramEncoder =
    std::function<std::vector<std::string>(std::uint64_t program_seed)>;

// Runs one schedule of an encoded program (setup line, one line per thread,
// finale line) under `strategy`.
using ProgramRunner = std::function<RunObservation(
    const std::vector<std::string>& program, sched::Strategy& strategy)>;

// How much shrinking a failing schedule may cost, in reruns of the case: the
// preemptions of the schedule as found, then the program and its schedule
// again (the last kScheduleReshrinkRuns of those for the schedule). At most
// kPreemptionShrinkRuns + kProgramShrinkRuns reruns in all, plus the final
// replay.
inline constexpr int kPreemptionShrinkRuns = 200;
inline constexpr int kProgramShrinkRuns = 300;
inline constexpr int kScheduleReshrinkRuns = 100;

// Makes a failing schedule minimal. With `shrink`: its preemptions (any
// finding counts as failing, as before the program is touched), then its
// program (sched::shrink_program) and its preemptions again, where a rerun
// fails only when it reports the same kinds of finding from the same oracles
// as that schedule on the whole program: a removal that makes another kind of
// failure appear does not count, and a scenario's invariants judge the smaller
// program as they judge the full one. Then the result is replayed once more:
// its findings and trace are what is reported, so what the user replays is
// exactly what they read. When that replay does not fail, the original
// `failing` run and `program` are reported. The result's findings and
// schedule (program included) are what is reported; its `schedules` counts
// the reruns, the final replay included.
RunObservation minimize_failure(const ProgramRunner& run,
                                std::vector<std::string> program,
                                RunObservation failing, bool shrink);

// The engine's one search over schedules, shared by every family and every
// driver (the CLI's child through CaseSpec::run, the kit's check_store and
// replay_store): replays the request's recorded schedule (strict, or lenient
// with request.lenient_replay), or tries up to request.budget schedules under
// request.strategy and makes the first failing one minimal
// (minimize_failure). Which program each schedule runs: under pct and
// random, the program of seed request.seed + i for schedule i; under a
// strategy that searches a tree (dfs, plain-dfs), the program of
// request.seed for every schedule of the tree. `seeded`: the program depends
// on the seed (Scenario::seeded); then the trees start at preemption bound
// 0, a tree exhausted within the budget is followed by one of the same
// program with the bound one higher, up to request.preemptions, and then by
// one of the next seed whose program was not searched yet; the search is
// never exhaustive (it covers some programs of the scenario, not all).
// The first failing schedule goes to request.on_found before it is shrunk;
// a stop request (request.stop_requested, or a ScheduleStopped from a
// rerun) during the shrink reports it as found, interrupted.
// When kSameProgramTries seeds in a row give programs already searched, the
// search ends there.
// A numbered search (pct, random) runs the schedules of the request's shard
// only, and with `more_workers` (makes one more worker: a runner of its own)
// runs request.jobs of them at once (SchedulePool); its observation is the
// same for any number of jobs. A shard's first_failing is the schedule's
// index in the whole search. An unseeded dfs search with more than one job
// splits its tree at the first branching decision (SplitTreePool); its
// observation is the same for any number of jobs from 2 on.
inline constexpr int kSameProgramTries = 64;
RunObservation explore(const ScheduleRunner& run_schedule,
                       const ProgramEncoder& encode, const RunRequest& request,
                       bool seeded,
                       const std::function<WorkerRunner()>& more_workers = {});

// Keeps a store whose threads were abandoned in a deadlock: its locks are still
// held, so destroying it would be undefined behaviour. Reachable, never freed.
void abandon(std::shared_ptr<void> store);

// Findings from a finished schedule's scheduler result (deadlock, step limit,
// exceptions).
void add_scheduler_findings(const sched::RunResult& run,
                            std::vector<Finding>& findings);

}  // namespace controlled_internal

template <class F>
std::vector<std::string> encode_program(
    const Program<typename F::Op>& program) {
  auto line = [](const std::vector<typename F::Op>& ops) {
    std::vector<std::string> texts;
    for (const auto& op : ops) texts.push_back(F::describe(op));
    return join_program_line(texts);
  };
  std::vector<std::string> lines = {line(program.setup)};
  for (const auto& ops : program.threads) lines.push_back(line(ops));
  lines.push_back(line(program.finale));
  return lines;
}

// Why `text` is not an operation of family F.
template <class F>
std::string not_an_operation(std::string_view text) {
  return "'" + std::string(text) + "' is not a " + family_name<F>() +
         " operation";
}

// Empty when every operation of a program line parses; else what is wrong
// with the first that does not (CaseSpec::check_program_line).
template <class F>
std::string program_line_error(std::string_view line) {
  for (const std::string& text : split_program_line(line)) {
    if (!F::parse(text)) return not_an_operation<F>(text);
  }
  return "";
}

// Throws InputError naming the first operation that does not parse.
template <class F>
Program<typename F::Op> decode_program(const std::vector<std::string>& lines) {
  if (lines.size() < 3) {
    throw InputError(
        "a program needs a setup line, one thread and a finale line");
  }
  auto parse_line = [](const std::string& line) {
    std::vector<typename F::Op> ops;
    for (const std::string& text : split_program_line(line)) {
      std::optional<typename F::Op> op = F::parse(text);
      if (!op) throw InputError(not_an_operation<F>(text));
      ops.push_back(std::move(*op));
    }
    return ops;
  };
  Program<typename F::Op> program;
  program.setup = parse_line(lines.front());
  for (size_t i = 1; i + 1 < lines.size(); ++i)
    program.threads.push_back(parse_line(lines[i]));
  program.finale = parse_line(lines.back());
  return program;
}

// A schedule that ran without its trace (Strategy::records_trace off, as a
// fuzz input's does) and failed runs once more, replaying its decisions with
// the trace on, so that its report shows what happened; `rerun` runs the same
// program under the strategy it is given. The findings stay the first run's
// (a sanitizer may not report the same race twice in one process); the trace
// is the replay's when it followed every decision, which makes it the same
// schedule.
template <class Rerun>
RunObservation with_trace(RunObservation untraced, const Rerun& rerun) {
  if (untraced.findings.empty()) return untraced;
  sched::ReplayStrategy replay(untraced.schedule.decisions,
                               sched::ReplayMode::kStrict);
  RunObservation traced = rerun(replay);
  if (!replay.diverged() &&
      traced.schedule.decisions == untraced.schedule.decisions) {
    untraced.schedule.trace = std::move(traced.schedule.trace);
  }
  return untraced;
}

// Runs one schedule of `program` against a fresh store under `strategy` and
// judges it (judge_run). A schedule that deadlocked or was cut off keeps its
// store forever (abandon) and is judged without its finale.
template <class F>
RunObservation run_schedule(
    const Scenario<F>& scenario, const StoreFactory<F>& make_store,
    const Program<typename F::Op>& program, OracleSet oracles,
    sched::ControlledScheduler& scheduler, sched::Strategy& strategy,
    const std::function<std::vector<Finding>()>& take_sanitizer_findings) {
  using Op = typename F::Op;
  using Result = typename F::Result;
  using EventT = Event<Op, Result>;
  using controlled_internal::ControlledContext;

  controlled_internal::reset_clock();
  std::shared_ptr<typename F::Store> store = make_store();

  // Every vector is reserved for the program's operations up front: growing
  // them event by event moved every recorded event several times.
  const int n = static_cast<int>(program.threads.size());
  std::size_t total = program.setup.size() + program.finale.size();
  for (const auto& ops : program.threads) total += ops.size();
  History<Op, Result> history;
  history.reserve(total);
  ControlledContext setup_ctx(kSetupThread);
  for (const Op& op : program.setup)
    run_operation<F>(*store, op, setup_ctx, history);

  std::vector<std::vector<EventT>> per_thread(n);
  for (int t = 0; t < n; ++t) per_thread[t].reserve(program.threads[t].size());
  // What every thread's body needs, behind one pointer: a body of a pointer
  // and an int fits in std::function without an allocation.
  struct Shared {
    const Program<Op>& program;
    typename F::Store& store;
    std::vector<std::vector<EventT>>& per_thread;
  } shared{program, *store, per_thread};
  std::vector<std::function<void()>> bodies;
  bodies.reserve(n);
  for (int t = 0; t < n; ++t) {
    bodies.push_back([run = &shared, t] {
      auto& [program, store, per_thread] = *run;
      ControlledContext ctx(t);
      int index = 0;
      for (const Op& op : program.threads[t]) {
        sched::ControlledScheduler::begin_operation(index++);
        yield_point("op", kOperationCall, PointKind::kOperationStart);
        const bool tracing = sched::ControlledScheduler::tracing();
        if (tracing) sched::ControlledScheduler::note(F::describe(op));
        // The operation's own event; the calls it made from inside follow.
        const std::size_t own = per_thread[t].size();
        run_operation<F>(store, op, ctx, per_thread[t]);
        if (tracing) {
          sched::ControlledScheduler::note(
              "-> " + F::describe(op, per_thread[t][own].result));
        }
      }
    });
  }

  sched::RunResult run = scheduler.run(bodies, strategy);
  int operations = 0;
  for (auto& events : per_thread) {
    operations += static_cast<int>(events.size());
    for (EventT& e : events) history.push_back(std::move(e));
  }
  std::vector<Finding> findings;
  controlled_internal::add_scheduler_findings(run, findings);
  const bool completed = run.status == sched::RunResult::Status::kCompleted;
  if (!completed) {
    controlled_internal::abandon(store);
  } else {
    ControlledContext finale_ctx(n, ControlledContext::kAfterTheRun);
    for (const Op& op : program.finale)
      run_operation<F>(*store, op, finale_ctx, history);
  }
  judge_run<F>(scenario, program, history, completed ? store.get() : nullptr,
               oracles, take_sanitizer_findings, findings);
  forget_history(history);
  return controlled_internal::observe_schedule(std::move(run),
                                               std::move(findings), operations);
}

// Runs a case in controlled mode: explores schedules under the request's
// strategy, or replays the request's recorded schedule.
template <class F>
RunObservation run_controlled(
    const Scenario<F>& scenario, const StoreFactory<F>& make_store,
    const RunRequest& request,
    const std::function<std::vector<Finding>()>& take_sanitizer_findings) {
  sched::SchedulerOptions scheduler_options;
  scheduler_options.substrate = request.threads;
  scheduler_options.memory_model = request.memory_model;
  sched::ControlledScheduler scheduler(scheduler_options);
  // In an isolated check's child, the parent sees every schedule's program
  // and decisions as they happen (racelab/internal/isolation.h).
  isolation::observe_decisions(scheduler);
  // A program that ignores the seed is built once for the whole search, one
  // of the seed once per seed.
  std::optional<Program<typename F::Op>> built;
  std::uint64_t built_seed = 0;
  auto program_for = [&](std::uint64_t seed) -> const Program<typename F::Op>& {
    if (!built || (scenario.seeded && seed != built_seed)) {
      built = scenario.program(seed, ProgramSize::kSmall);
      built_seed = seed;
    }
    return *built;
  };
  controlled_internal::ScheduleRunner runner =
      [&](std::uint64_t seed, const std::vector<std::string>* recorded,
          sched::Strategy& strategy) {
        std::optional<Program<typename F::Op>> decoded;
        if (recorded) decoded = decode_program<F>(*recorded);
        const Program<typename F::Op>& program =
            decoded ? *decoded : program_for(seed);
        if (isolation::in_child()) {
          const std::vector<std::string> lines =
              recorded ? *recorded : encode_program<F>(program);
          isolation::begin_schedule(-1, &lines);
        }
        return run_schedule<F>(scenario, make_store, program, request.oracles,
                               scheduler, strategy, take_sanitizer_findings);
      };
  controlled_internal::ProgramEncoder encoder = [&](std::uint64_t seed) {
    return encode_program<F>(program_for(seed));
  };
  return controlled_internal::explore(runner, encoder, request,
                                      scenario.seeded);
}

}  // namespace racelab

#endif  // RACELAB_CONTROLLED_RUNNER_H_
