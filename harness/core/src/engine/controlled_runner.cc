// The schedule search of controlled mode, shared by every family.
#include "racelab/internal/controlled_runner.h"

#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/progress.h"
#include "racelab/internal/sched/shrink.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/schedule_pool.h"
#include "racelab/session_state.h"
#include "racelab/split_tree_pool.h"

namespace racelab::controlled_internal {
namespace {

// The clock is the current session's (session_state.h).
std::atomic<std::uint64_t>& clock() {
  return session_internal::current().controlled.clock;
}

// Adds the findings of `extra` whose kind `into` does not have yet.
void merge_kinds(std::vector<Finding>& into,
                 const std::vector<Finding>& extra) {
  std::set<FindingKind> have;
  for (const Finding& f : into) have.insert(f.kind);
  for (const Finding& f : extra) {
    if (!have.contains(f.kind)) into.push_back(f);
  }
}

// What a rerun must report to fail "the same way": each kind of finding with
// the oracle that reported it.
using FailureSignature = std::set<std::pair<FindingKind, Oracle>>;

FailureSignature signature_of(const std::vector<Finding>& findings) {
  FailureSignature signature;
  for (const Finding& f : findings) signature.emplace(f.kind, f.oracle);
  return signature;
}

sched::ShrinkProgram to_shrink_program(const std::vector<std::string>& lines) {
  sched::ShrinkProgram program;
  program.setup = split_program_line(lines.front());
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    program.threads.push_back(split_program_line(lines[i]));
  }
  program.finale = split_program_line(lines.back());
  return program;
}

std::vector<std::string> to_lines(const sched::ShrinkProgram& program) {
  std::vector<std::string> lines = {join_program_line(program.setup)};
  for (const auto& ops : program.threads) {
    lines.push_back(join_program_line(ops));
  }
  lines.push_back(join_program_line(program.finale));
  return lines;
}

}  // namespace

std::uint64_t next_tick(Tick tick) {
  NotSchedulingPoints harness;
  // The order of one thread's return and another's call is the history's
  // real-time order.
  sched::ControlledScheduler::touch(tick == Tick::kCall ? kOperationCall
                                                        : kOperationReturn);
  return clock().fetch_add(1, std::memory_order_relaxed) + 1;
}
void reset_clock() {
  NotSchedulingPoints harness;
  clock().store(0, std::memory_order_relaxed);
}

void abandon(std::shared_ptr<void> store) {
  // Process-wide on purpose: an abandoned store's stuck threads may still
  // touch it, so it lives until the process exits, past its session.
  static auto* abandoned = new std::vector<std::shared_ptr<void>>;
  abandoned->push_back(std::move(store));
}

void add_scheduler_findings(const sched::RunResult& run,
                            std::vector<Finding>& findings) {
  using Status = sched::RunResult::Status;
  if (run.status == Status::kDeadlock) {
    std::string first =
        run.deadlock_report.substr(0, run.deadlock_report.find('\n'));
    findings.push_back({FindingKind::kDeadlock,
                        Oracle::kDeadlock,
                        "every thread is blocked: " + first,
                        run.deadlock_locks.empty()
                            ? run.deadlock_report
                            : run.deadlock_report + "\n" + run.deadlock_locks,
                        std::nullopt,
                        {}});
  } else if (run.status == Status::kStepLimit) {
    findings.push_back(
        {FindingKind::kTimeout,
         Oracle::kTimeout,
         sched::limit_summary(run.status, run.limit, run.livelock_report),
         {},
         std::nullopt,
         {}});
  }
  // kLengthLimit is no finding: a run still making progress was cut
  // (RunObservation::length_cut, from observe_schedule).
  for (const std::string& error : run.thread_errors) {
    findings.push_back(
        {FindingKind::kCrash, Oracle::kCrash, error, {}, std::nullopt, {}});
  }
}

RunObservation observe_schedule(sched::RunResult run,
                                std::vector<Finding> findings, int operations) {
  RunObservation obs;
  obs.findings = std::move(findings);
  obs.operations = operations;
  obs.schedules = 1;
  obs.first_failing = obs.findings.empty() ? -1 : 0;
  obs.more_schedules = run.more_schedules;
  obs.schedule.decisions = std::move(run.decisions);
  obs.schedule.decision_operations = std::move(run.decision_operations);
  obs.schedule.preemptions = run.preemptions;
  obs.schedule.memory_model = run.memory_model;
  obs.inner_points = run.inner_points;
  obs.fairness_cut = run.fairness_cut;
  obs.unmodelled_blocks = static_cast<int>(run.unmodelled_blocks.size());
  if (!run.unmodelled_blocks.empty()) {
    obs.first_block = run.unmodelled_blocks.front().where;
  }
  if (run.status == sched::RunResult::Status::kLengthLimit) {
    obs.length_cut = run.limit;
  }
  obs.schedule.trace = std::move(run.trace);
  obs.schedule.status = run.status;
  return obs;
}

RunObservation minimize_failure(const ProgramRunner& run,
                                std::vector<std::string> program,
                                RunObservation failing, bool shrink) {
  int reruns = 0;
  std::vector<std::string> lines = program;
  std::vector<int> decisions = failing.schedule.decisions;
  if (shrink) {
    const sched::ShrinkResult shrunk = sched::shrink_schedule(
        decisions,
        [&](sched::Strategy& replay) {
          replay.set_records_trace(false);  // only the final replay's is kept
          return !run(lines, replay).findings.empty();
        },
        kPreemptionShrinkRuns);
    reruns += shrunk.runs;
    // A program of encoded lines (setup, threads, finale) shrinks too; a
    // whole program has none.
    if (shrunk.reproduced) decisions = shrunk.decisions;
    if (shrunk.reproduced && lines.size() >= 3) {
      // The program shrink's first rerun (the shrunk schedule on the whole
      // program) fixes the failure every later rerun must show.
      std::optional<FailureSignature> reference;
      int runs = 0;
      try {
        const sched::ProgramShrinkResult smaller = sched::shrink_program(
            to_shrink_program(lines), decisions,
            [&](const sched::ShrinkProgram& candidate,
                sched::Strategy& strategy, sched::RunResult& rerun) {
              ++runs;
              strategy.set_records_trace(false);
              RunObservation outcome = run(to_lines(candidate), strategy);
              rerun.decisions = std::move(outcome.schedule.decisions);
              rerun.decision_operations =
                  std::move(outcome.schedule.decision_operations);
              rerun.preemptions = outcome.schedule.preemptions;
              FailureSignature signature = signature_of(outcome.findings);
              if (!reference) reference = signature;
              return !signature.empty() && signature == *reference;
            },
            kProgramShrinkRuns, kScheduleReshrinkRuns);
        if (smaller.reproduced) {
          lines = to_lines(smaller.program);
          decisions = smaller.decisions;
        }
      } catch (const InputError&) {
        // A smaller program's text does not parse back (a family whose
        // describe() and parse() disagree): keep the program as found.
      }
      reruns += runs;
    }
  }
  sched::ReplayStrategy replay(decisions, sched::ReplayMode::kLenient);
  RunObservation result = run(lines, replay);
  ++reruns;
  if (result.findings.empty()) {
    // Not reproducible: report the original. The search kept no trace of it;
    // when this replay ran that very schedule (a sanitizer that reports a
    // race once per process makes it clean), its trace is the original's.
    const bool same_schedule =
        !replay.diverged() && lines == program &&
        result.schedule.decisions == failing.schedule.decisions;
    sched::Trace replayed = std::move(result.schedule.trace);
    result = std::move(failing);
    if (same_schedule && result.schedule.trace.rows.empty()) {
      result.schedule.trace = std::move(replayed);
    }
    lines = std::move(program);
  }
  result.schedule.program = std::move(lines);
  result.schedules = reruns;
  return result;
}

RunObservation explore(const ScheduleRunner& run_schedule,
                       const ProgramEncoder& encode, const RunRequest& request,
                       bool seeded,
                       const std::function<WorkerRunner()>& more_workers) {
  RunObservation obs;
  if (request.replay || !request.replay_program.empty()) {
    sched::ReplayStrategy replay(request.replay_decisions,
                                 request.lenient_replay
                                     ? sched::ReplayMode::kLenient
                                     : sched::ReplayMode::kStrict);
    obs = run_schedule(request.seed, &request.replay_program, replay);
    obs.schedule.program = request.replay_program;
    obs.replay_diverged = replay.diverged();
    return obs;
  }

  // A strategy that searches a tree (dfs, plain-dfs) runs one program in
  // every schedule of the tree: at first the program of the request's seed.
  // When a seeded scenario's tree is exhausted within the budget, the next
  // tree searches the same program with a higher preemption bound, from 0 up
  // to the request's (to 2, then none, when it has none), so that a bug that
  // needs few preemptions is met in many programs before the full trees of a
  // few are done; after the request's bound, the next program. Such a search
  // covers some programs of the scenario, not the scenario, and is never
  // exhaustive. pct and random run a new program in every schedule.
  const std::optional<sched::StrategyKind> kind =
      sched::strategy_kind(request.strategy);
  const bool one_program = kind && sched::searches_one_program(*kind);
  const int final_bound = request.preemptions;
  int bound = one_program && seeded ? 0 : final_bound;
  auto raise_bound = [&] {
    if (bound == final_bound) return false;
    bound = final_bound >= 0 || bound < 2 ? bound + 1 : final_bound;
    return true;
  };
  auto make = [&] {
    std::unique_ptr<sched::Strategy> made = sched::make_strategy(
        request.strategy, request.seed, request.depth, bound);
    // Only a failing schedule's trace is reported, and minimize_failure
    // replays that schedule with the trace on: the search keeps none.
    made->set_records_trace(false);
    return made;
  };
  std::unique_ptr<sched::Strategy> strategy = make();
  std::uint64_t program_seed = request.seed;
  // The programs whose trees were searched to the end. The next tree's is
  // the first seed's after them that differs from all of them (a scenario
  // may ignore the seed, or give some seeds the same program).
  std::set<std::vector<std::string>> searched;
  auto next_program = [&](std::uint64_t& seed) {
    searched.insert(encode(seed));
    for (int tries = 0; tries < kSameProgramTries; ++tries) {
      if (!searched.contains(encode(++seed))) return true;
    }
    return false;
  };
  // A numbered search runs schedules first, first + step, ... (its shard's),
  // each numbered with its index and the calibration (the steps of schedule
  // 0, run first, by a shard without it too), from the second on by the
  // pool when there is more than one job.
  const bool numbered = strategy->numbered();
  if (!numbered && request.shard_count > 1) {
    throw std::invalid_argument(
        "--shard: only a pct or random search splits into shards (a dfs "
        "search's schedules depend on the ones before)");
  }
  NumberedSchedules schedules;
  schedules.end = static_cast<std::uint64_t>(request.budget);
  if (numbered) {
    schedules.first = static_cast<std::uint64_t>(request.shard_index - 1);
    schedules.step = static_cast<std::uint64_t>(request.shard_count);
  }
  int calibration = 0;
  if (numbered && strategy->needs_calibration() && schedules.first != 0 &&
      !(request.stop_requested && request.stop_requested())) {
    strategy->number_schedule(0, 0);
    run_schedule(request.seed, nullptr, *strategy);
    calibration = strategy->steps_taken();
  }
  // The workers of a split search: this one, and request.jobs - 1 more.
  auto workers = [&] {
    std::vector<WorkerRunner> all = {
        [&](std::uint64_t seed, sched::Strategy& s) {
          return run_schedule(seed, nullptr, s);
        }};
    for (int w = 1; w < request.jobs; ++w) all.push_back(more_workers());
    return all;
  };
  std::unique_ptr<SchedulePool> pool;
  // nullopt: a stop request kept the schedule from starting.
  auto run_numbered =
      [&](std::uint64_t position,
          std::uint64_t index) -> std::optional<RunObservation> {
    if (position == 0 || request.jobs <= 1 || !more_workers) {
      strategy->number_schedule(index, calibration);
      RunObservation outcome =
          run_schedule(request.seed + index, nullptr, *strategy);
      if (index == 0) calibration = strategy->steps_taken();
      return outcome;
    }
    if (pool == nullptr) {
      pool = std::make_unique<SchedulePool>(
          workers(), make, [&](std::uint64_t i) { return request.seed + i; },
          schedules, position, calibration, request.stop_requested);
    }
    return pool->take(position);
  };
  // A dfs search of a whole program with more than one job splits at its
  // tree's first branching decision: its first schedule finds that decision
  // here, then one search rooted at each choice runs on the workers
  // (SplitTreePool), their schedules taken in one fixed order.
  const bool split_tree = kind == sched::StrategyKind::kDfs && !seeded &&
                          request.jobs > 1 && more_workers;
  std::vector<std::vector<int>> roots;
  std::unique_ptr<SplitTreePool> tree_pool;
  auto run_tree = [&](std::uint64_t position) -> std::optional<RunObservation> {
    if (position == 0) {
      auto* dfs = dynamic_cast<sched::DfsStrategy*>(strategy.get());
      if (dfs != nullptr) dfs->record_decisions(true);
      RunObservation outcome = run_schedule(program_seed, nullptr, *strategy);
      if (dfs != nullptr)
        roots = sched::DfsStrategy::split_roots(dfs->last_decisions());
      return outcome;
    }
    if (tree_pool == nullptr) {
      tree_pool = std::make_unique<SplitTreePool>(
          workers(),
          [&] {
            auto made = std::make_unique<sched::DfsStrategy>(bound);
            made->set_records_trace(false);
            return made;
          },
          program_seed, roots, request.budget - 1, request.stop_requested);
    }
    return tree_pool->take(position - 1);
  };
  // Ends the pools (waiting for the schedules they run) before the failing
  // schedule is shrunk on this worker.
  auto end_pool = [&] {
    pool.reset();
    tree_pool.reset();
  };
  for (std::uint64_t position = 0; schedules.contains_position(position);
       ++position) {
    const int i = static_cast<int>(schedules.at(position));
    if (request.stop_requested && request.stop_requested()) {
      obs.interrupted = true;
      break;
    }
    note_progress();
    if (!one_program)
      program_seed = request.seed + static_cast<std::uint64_t>(i);
    std::optional<RunObservation> ran =
        numbered     ? run_numbered(position, static_cast<std::uint64_t>(i))
        : split_tree ? run_tree(position)
                     : run_schedule(program_seed, nullptr, *strategy);
    if (!ran) {
      obs.interrupted = true;
      break;
    }
    RunObservation outcome = std::move(*ran);
    ++obs.schedules;
    obs.operations += outcome.operations;
    obs.inner_points += outcome.inner_points;
    if (outcome.unmodelled_blocks > 0 && obs.unmodelled_blocks == 0) {
      obs.first_block = outcome.first_block;
    }
    obs.unmodelled_blocks += outcome.unmodelled_blocks;
    obs.fairness_cut = obs.fairness_cut || outcome.fairness_cut;
    if (outcome.findings.empty() && outcome.length_cut > 0) {
      // A clean schedule cut at the length limit while making progress:
      // inconclusive, and every schedule of such a program is as long, so
      // the search ends here (never exhaustive, never verified).
      obs.length_cut = outcome.length_cut;
      obs.schedule = std::move(outcome.schedule);
      obs.schedule.program = encode(program_seed);
      obs.schedule.trace = {};
      obs.warnings.push_back(absl::StrCat(
          "inconclusive: schedule ", i + 1, " was ",
          sched::limit_summary(sched::RunResult::Status::kLengthLimit,
                               outcome.length_cut),
          "; the search stopped there"));
      break;
    }
    if (outcome.findings.empty()) {
      const bool tree_done = one_program && !outcome.more_schedules;
      if (tree_done && seeded && i + 1 < request.budget) {
        if (raise_bound()) {
          strategy = make();
          continue;
        }
        if (next_program(program_seed)) {
          bound = 0;
          strategy = make();
          continue;
        }
      }
      const bool last =
          !schedules.contains_position(position + 1) || !outcome.more_schedules;
      if (last) {  // keep the last clean schedule, for --save-schedule
        obs.schedule = std::move(outcome.schedule);
        obs.schedule.program = encode(program_seed);
        obs.schedule.trace = {};  // reported for failing schedules only
        obs.exhaustive = tree_done && !seeded && obs.unmodelled_blocks == 0 &&
                         !obs.fairness_cut;
        if (tree_done && obs.fairness_cut) {
          obs.warnings.push_back(
              "fairness took choices away (a sleep or a yield gave way to "
              "another thread, or a spinning thread waited): the search "
              "covered fewer schedules than the program has, and is not "
              "exhaustive");
        }
        if (obs.unmodelled_blocks > 0) {
          obs.warnings.push_back(absl::StrCat(
              obs.unmodelled_blocks, " unmodelled block",
              obs.unmodelled_blocks == 1 ? "" : "s",
              " (a thread blocked in the kernel outside every scheduling "
              "point while the others ran on, threads outside the run worked "
              "beside it, or a thread ran library code no sanitizer "
              "instruments): the search is not exhaustive; the first: ",
              obs.first_block));
        }
        if (obs.inner_points == 0) {
          obs.warnings.push_back(absl::StrCat(
              "no scheduling point inside any operation in ", obs.schedules,
              " schedules: only whole operations were interleaved (is the "
              "store built with -fsanitize=thread? does it synchronize "
              "through something racelab cannot see, such as a prebuilt "
              "library or inline assembly?)"));
        }
        break;  // the budget is spent, or an exhaustive search is done
      }
      continue;
    }
    end_pool();
    obs.first_failing = i;
    const std::vector<Finding> first_findings =
        request.keep_first_kinds ? outcome.findings : std::vector<Finding>{};
    // The program as found reruns from its seed, as the search ran it.
    const std::vector<std::string> found = encode(program_seed);
    // The finding as found: given to the caller before the shrink, and
    // reported when a stop request ends the shrink.
    RunObservation as_found = outcome;
    as_found.schedule.program = found;
    as_found.schedules = obs.schedules;
    as_found.first_failing = i;
    if (request.on_found) request.on_found(as_found);
    int reruns = 0;
    try {
      RunObservation minimal = minimize_failure(
          [&](const std::vector<std::string>& program, sched::Strategy& rerun) {
            if (request.stop_requested && request.stop_requested()) {
              throw ScheduleStopped{};
            }
            note_progress();
            RunObservation rerun_outcome = run_schedule(
                program_seed, program == found ? nullptr : &program, rerun);
            ++reruns;
            return rerun_outcome;
          },
          found, std::move(outcome), request.shrink);
      obs.findings = std::move(minimal.findings);
      merge_kinds(obs.findings, first_findings);
      obs.schedule = std::move(minimal.schedule);
      obs.shrink_runs = minimal.schedules;
    } catch (const ScheduleStopped&) {
      obs.findings = std::move(as_found.findings);
      obs.schedule = std::move(as_found.schedule);
      obs.shrink_runs = reruns;
      obs.interrupted = true;
    }
    return obs;
  }
  return obs;
}

}  // namespace racelab::controlled_internal
