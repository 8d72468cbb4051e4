// racelab explore -- ./program args: schedules of a whole program, and the
// printing shared with a whole program's replay; with --tests, each test of
// a test binary (GoogleTest, Catch2, or racelab's listing convention)
// explored on its own.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "racelab/cli_commands.h"
#include "racelab/progress_line.h"
#include "racelab/test_listing.h"

namespace racelab::cli_internal {

// The reports of one or more explored programs (a whole program, or each
// test of a test binary) into the claimed folder.
// With --tests --shard K/N, the cases are the shard's: `total` tests in all,
// each case at its position in the listing (`case_index`), so that
// `racelab merge` joins the shards' folders as it joins a gate's. A whole
// program's --shard splits its search's schedules (ShardSplit::kSchedules):
// every shard holds the one case.
// `identity` is the run's (run_identity), which `racelab merge` compares
// between shards.
int write_program_reports(std::vector<CaseResult> cases, RunKind kind,
                          const ProgramExploreOptions& options,
                          nlohmann::json identity, OutputFolder& out,
                          const std::string& out_dir, Shard shard = {},
                          std::size_t total = 0,
                          std::vector<std::size_t> case_index = {},
                          ShardSplit split = ShardSplit::kCases) {
  GateResult all;
  all.run_id = make_run_id();
  all.cases_total = std::max(total, cases.size());
  all.case_index = std::move(case_index);
  for (const CaseResult& c : cases) {
    if (!c.mismatch.empty()) ++all.mismatches;
  }
  all.cases = std::move(cases);
  GateOptions gate_options;
  gate_options.shard_index = shard.index;
  gate_options.shard_count = shard.count;
  gate_options.shard_split = split;
  gate_options.run_kind = kind;
  gate_options.modes = {Mode::kControlled};
  gate_options.run.request.mode = Mode::kControlled;
  gate_options.run.request.strategy = options.strategy;
  gate_options.run.request.seed = options.seed;
  gate_options.run.request.depth = options.depth;
  gate_options.run.request.preemptions = options.preemptions;
  gate_options.run.request.budget = options.budget;
  gate_options.identity = std::move(identity);
  gate_options.run.request.shrink = options.shrink;
  try {
    write_results_json(all, gate_options, out.staging().string());
    out.commit();
  } catch (const OutputError& e) {
    print_error(std::cerr, out.explain(e.what()));
    return kExitHarness;
  }
  std::cout << "reports written to " << out_dir << "\n";
  return kExitOk;
}

// The options of a search that decide what it finds, as the identity of
// its run records them (every shard of one search has the same).
nlohmann::json search_options(const ProgramExploreOptions& options) {
  return {{"strategy", options.strategy},
          {"seed", options.seed},
          {"depth", options.depth},
          {"preemptions", options.preemptions},
          {"budget", options.budget},
          {"shrink", options.shrink},
          {"max_steps", options.max_steps},
          {"spin_bound", options.spin_bound},
          {"memory_model", options.memory_model},
          {"hang_seconds", options.hang_seconds}};
}

// The progress line of a search of the program `name` that has run `runs`
// schedules in `elapsed`: "racelab explore: counter: 120 of 300 schedules
// (pct), 41/s, 2.9 s", or, once it has its finding, "racelab explore:
// counter: found; shrinking it, 12 runs, 5.1 s".
std::string progress_text(const std::string& name,
                          const ProgramExploreOptions& options, int runs,
                          bool shrinking,
                          std::chrono::steady_clock::duration elapsed) {
  if (shrinking) {
    return absl::StrCat("racelab explore: ", name, ": found; shrinking it, ",
                        runs, " runs, ", progress_time(elapsed));
  }
  const double seconds = std::chrono::duration<double>(elapsed).count();
  return absl::StrCat(
      "racelab explore: ", name, ": ", runs, " of ", options.budget,
      " schedules (", options.strategy, "), ",
      seconds > 0 ? absl::StrFormat("%.0f", runs / seconds) : "-", "/s, ",
      progress_time(elapsed));
}

// Explores or replays a whole program: a finding is printed (stderr) and its
// schedule saved the moment it is made, before it is shrunk; SIGINT and
// SIGTERM stop the program and the search (the schedules so far are
// reported, exit 128 + signal) or the shrink (the finding is reported as
// found, exit 1); a closed stdout costs only the text, never the status.
int explore_and_print(const ProgramExploreOptions& options,
                      const std::string* out_dir) {
  report_write_errors_instead_of_dying();
  // The output folder is claimed before the search, written after it.
  std::optional<OutputFolder> out;
  if (out_dir != nullptr) out.emplace("--out", *out_dir);
  InterruptScope interrupt;
  ProgramExploreOptions run = options;
  run.stop_requested = [] { return InterruptScope::signal_received() != 0; };
  ProgressLine line;
  if (line.on() && !options.replay) {
    const auto started = std::chrono::steady_clock::now();
    const std::string name = program_case_name(options.command);
    run.on_progress = [&line, &options, started, name](int runs,
                                                       bool shrinking) {
      line.show(progress_text(name, options, runs, shrinking,
                              std::chrono::steady_clock::now() - started));
    };
  }
  if (options.shrink && !options.replay) {
    run.on_found = [&options, &line](const ProgramExploreResult& found) {
      line.clear();
      std::cerr << describe_found(
          found, options, "racelab explore: " + options.command.front());
      std::cerr.flush();
    };
  }
  const ProgramExploreResult result = explore_program(std::move(run));
  line.clear();
  const int sig = InterruptScope::signal_received();
  if (!result.inconclusive.empty() && !result.found() && sig == 0) {
    throw InputError(absl::StrCat(options.command.front(),
                                  ": inconclusive: ", result.inconclusive));
  }
  if (options.stacks) {
    std::cout << "call stacks at each decision (the running thread's):\n"
              << result.stacks
              << (result.stacks_cut ? "(cut: the stacks filled their room)\n"
                                    : "");
  }
  std::cout << describe(result, options);
  std::cout.flush();
  if (sig != 0 && !result.found()) {
    std::cerr << "racelab: interrupted by " << signal_name(sig) << " after "
              << result.search.schedules << " schedules; nothing written\n";
    return 128 + sig;
  }
  if (sig != 0 && result.interrupted) {
    // The search had its finding: the signal stopped only its shrink.
    std::cerr << "racelab: interrupted by " << signal_name(sig)
              << " while shrinking; the finding is reported as found\n";
  }
  if (out) {
    const int status = write_program_reports(
        {program_case_result(result, options)}, RunKind::kExploreProgram,
        options,
        run_identity("explore", options.command, search_options(options)), *out,
        *out_dir, Shard{options.shard_index, options.shard_count}, 1, {0},
        ShardSplit::kSchedules);
    if (status != kExitOk) return status;
  }
  return result.found() ? kExitMismatch : kExitOk;
}

// What --tests adds to explore.
struct TestsOptions {
  bool on = false;        // --tests
  std::string framework;  // --framework; empty: read from the binary
  bool list = false;      // --list: print the tests' names, explore none
  std::string only;       // --test NAME: that test only
  int jobs = 1;           // --jobs N: tests explored at once
  Shard shard;            // --shard K/N: the tests at positions i % N == K-1
};

TestFramework framework_of(const TestsOptions& tests,
                           const std::vector<std::string>& command) {
  if (!tests.framework.empty()) return *framework_named(tests.framework);
  const std::optional<TestFramework> found =
      detect_test_framework(command.front());
  if (!found) {
    throw InputError(
        absl::StrCat("explore --tests: ", command.front(),
                     ": holds no test framework's listing option (GoogleTest's "
                     "--gtest_list_tests, Catch2's --list-test-names-only, or "
                     "--racelab-list-tests); name one with --framework"));
  }
  return *found;
}

// One test explored alone: what is printed for it, and its case.
struct TestOutcome {
  std::string text;
  CaseResult result;
  bool found = false;
  bool single = false;  // proven by its first schedule
  bool interrupted = false;
};

// Each test first runs once under dfs: a test whose first schedule is the
// only one that matters (it starts no second thread, or its threads share
// nothing dfs must reorder) is proven clean by it, and said so. The others
// get the search asked for.
TestOutcome explore_one_test(
    const ProgramExploreOptions& options, const std::string& test,
    std::vector<std::string> command,
    const std::function<void(int runs, bool shrinking)>& on_progress,
    const std::function<void(const std::string& text)>& say_found) {
  ProgramExploreOptions one = options;
  one.command = std::move(command);
  one.stop_requested = [] { return InterruptScope::signal_received() != 0; };
  one.on_progress = on_progress;
  ProgramExploreOptions probe = one;
  probe.strategy = "dfs";
  probe.budget = 1;
  // A finding is said the moment it is made, before its shrink.
  for (ProgramExploreOptions* search : {&probe, &one}) {
    if (!options.shrink) break;
    search->on_found = [search, &test,
                        &say_found](const ProgramExploreResult& found) {
      say_found(
          describe_found(found, *search, "racelab explore --tests: " + test));
    };
  }
  ProgramExploreResult result = explore_program(probe);
  const std::chrono::nanoseconds probe_time = result.wall_time;
  const ProgramExploreOptions* used = &probe;
  TestOutcome outcome;
  outcome.single =
      !result.found() && result.search.exhaustive && !result.interrupted;
  if (!outcome.single && !result.found() && !result.interrupted) {
    result = explore_program(one);
    result.wall_time += probe_time;
    used = &one;
  }
  outcome.interrupted =
      result.interrupted || InterruptScope::signal_received() != 0;
  outcome.found = result.found();
  if (outcome.single) {
    outcome.text = test +
                   ": clean, verified in one schedule (nothing to "
                   "interleave)\n";
  } else if (result.found()) {
    outcome.text = test + ":\n" + describe(result, *used);
  } else if (outcome.interrupted) {
    outcome.text = absl::StrCat(test, ": interrupted, clean over ",
                                result.search.schedules, " schedules (",
                                used->strategy, ")\n");
  } else {
    outcome.text = absl::StrCat(
        test, ": clean, ", result.search.schedules, " schedules (",
        used->strategy, result.search.exhaustive ? ", verified" : "", ")\n");
  }
  outcome.result = program_case_result(result, *used);
  // The case is the test, in the binary as the user named it: the
  // arguments that select the test alone are racelab's, not the user's.
  outcome.result.scenario = test;
  outcome.result.subject = program_case_name(options.command);
  outcome.result.arguments.assign(options.command.begin() + 1,
                                  options.command.end());
  return outcome;
}

// racelab explore --tests -- ./unit_tests [args]: lists the binary's tests
// and explores each alone (those of the shard), up to --jobs of them at
// once. Each test's search is the same whatever the number of jobs, and the
// tests are printed and reported in the listing's order.
int explore_tests_and_print(const ProgramExploreOptions& options,
                            const TestsOptions& asked,
                            const std::string* out_dir) {
  report_write_errors_instead_of_dying();
  const TestFramework framework = framework_of(asked, options.command);
  const std::vector<std::string> listed =
      list_tests(framework, options.command);
  if (asked.list) {
    for (const std::string& test : listed) std::cout << test << "\n";
    return kExitOk;
  }
  std::vector<std::size_t> chosen;  // positions in the listing
  if (!asked.only.empty()) {
    const auto found = std::find(listed.begin(), listed.end(), asked.only);
    if (found == listed.end()) {
      throw InputError(absl::StrCat("--test: ", options.command.front(),
                                    " lists no test named '", asked.only, "'"));
    }
    chosen.push_back(static_cast<std::size_t>(found - listed.begin()));
  } else {
    const auto count = static_cast<std::size_t>(asked.shard.count);
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (i % count == static_cast<std::size_t>(asked.shard.index - 1)) {
        chosen.push_back(i);
      }
    }
  }
  // Every test's command before any runs: a test the framework cannot run
  // alone is an input error, before anything is written.
  const std::vector<std::string> selectable =
      tests_a_name_may_select(framework, options.command);
  std::vector<std::vector<std::string>> commands;
  for (std::size_t i : chosen) {
    commands.push_back(
        one_test_command(framework, options.command, listed[i], selectable));
  }
  std::optional<OutputFolder> out;
  if (out_dir != nullptr) out.emplace("--out", *out_dir);
  std::cout << options.command.front() << ": " << listed.size() << " test"
            << (listed.size() == 1 ? "" : "s") << " ("
            << framework_name(framework) << ")";
  if (asked.shard.count > 1) {
    std::cout << ", shard " << asked.shard.index << "/" << asked.shard.count
              << ": " << chosen.size() << " of them";
  }
  std::cout << "\n";
  std::cout.flush();
  InterruptScope interrupt;
  ProgressLine line;
  std::atomic<int> tests_done = 0, tests_found = 0;
  // The progress of test `test`, started at `started`, with the tests done.
  auto progress_of = [&](const std::string& test,
                         std::chrono::steady_clock::time_point started) {
    return [&, test, started](int runs, bool shrinking) {
      line.show(absl::StrCat(
          "racelab explore --tests: ", tests_done.load(), " of ", chosen.size(),
          " tests done, ", tests_found.load(), " with findings; ", test, ": ",
          runs, shrinking ? " runs (shrinking a finding)" : " schedules", ", ",
          progress_time(std::chrono::steady_clock::now() - started)));
    };
  };

  // Workers take the next test in order; this thread prints the outcomes
  // in that order as they come.
  std::vector<std::optional<TestOutcome>> outcomes(chosen.size());
  std::mutex mu;
  std::condition_variable done;
  std::size_t next = 0;
  std::exception_ptr error;
  auto work = [&] {
    for (;;) {
      std::size_t i;
      {
        std::lock_guard<std::mutex> hold(mu);
        if (next == chosen.size() || error ||
            InterruptScope::signal_received() != 0) {
          return;
        }
        i = next++;
      }
      std::optional<TestOutcome> outcome;
      try {
        const std::string& test = listed[chosen[i]];
        std::function<void(int, bool)> progress;
        if (line.on()) {
          progress = progress_of(test, std::chrono::steady_clock::now());
        }
        auto say_found = [&](const std::string& text) {
          std::lock_guard<std::mutex> hold(mu);
          line.clear();
          std::cerr << text;
          std::cerr.flush();
        };
        outcome =
            explore_one_test(options, test, commands[i], progress, say_found);
      } catch (...) {
        std::lock_guard<std::mutex> hold(mu);
        if (!error) error = std::current_exception();
        done.notify_all();
        return;
      }
      std::lock_guard<std::mutex> hold(mu);
      outcomes[i] = std::move(outcome);
      done.notify_all();
    }
  };
  const int workers =
      std::max(1, std::min<int>(asked.jobs, static_cast<int>(chosen.size())));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work);
  std::vector<CaseResult> cases;
  std::vector<std::size_t> case_index;
  int found = 0, single = 0;
  bool stopped = false;
  // Prints the outcomes that are in, in the listing's order. Once a signal
  // has stopped the search, each test that ran is still printed: one whose
  // shrink was stopped as found, one whose search was stopped as clean over
  // the schedules it ran.
  auto print_ready = [&](std::unique_lock<std::mutex>& hold) {
    while (cases.size() < chosen.size() && outcomes[cases.size()]) {
      TestOutcome& o = *outcomes[cases.size()];
      if (o.interrupted) stopped = true;
      found += o.found ? 1 : 0;
      single += o.single ? 1 : 0;
      tests_done = static_cast<int>(cases.size()) + 1;
      tests_found = found;
      hold.unlock();
      line.clear();
      std::cout << o.text;
      std::cout.flush();
      hold.lock();
      case_index.push_back(chosen[cases.size()]);
      cases.push_back(std::move(o.result));
    }
  };
  {
    std::unique_lock<std::mutex> hold(mu);
    while (cases.size() < chosen.size() && !error && !stopped &&
           InterruptScope::signal_received() == 0) {
      done.wait_for(hold, std::chrono::milliseconds(100));
      print_ready(hold);
    }
  }
  for (std::thread& t : threads) t.join();
  {
    std::unique_lock<std::mutex> hold(mu);
    print_ready(hold);
  }
  line.clear();
  if (error) std::rethrow_exception(error);
  const int sig = InterruptScope::signal_received();
  if (sig != 0) {
    // Not every test ran to its end: no report is written, and a finding
    // made decides the status as it would have.
    std::cerr << "racelab: interrupted by " << signal_name(sig) << " after "
              << cases.size() << " of " << chosen.size() << " tests, " << found
              << " with findings (reported as found)"
              << (out ? "; no report written\n" : "\n");
    return found > 0 ? kExitMismatch : 128 + sig;
  }
  std::cout << chosen.size() << " test" << (chosen.size() == 1 ? "" : "s")
            << ": " << found << " with findings, " << single
            << " verified in one schedule\n";
  if (out) {
    const Shard shard = asked.only.empty() ? asked.shard : Shard{};
    nlohmann::json identity_options = search_options(options);
    identity_options["framework"] = framework_name(framework);
    identity_options["test"] = asked.only;
    identity_options["tests"] = listed.size();
    const int status = write_program_reports(
        std::move(cases), RunKind::kExploreTests, options,
        run_identity("explore --tests", options.command,
                     std::move(identity_options)),
        *out, *out_dir, shard, asked.only.empty() ? listed.size() : 1,
        asked.only.empty() ? std::move(case_index)
                           : std::vector<std::size_t>{});
    if (status != kExitOk) return status;
  }
  return found > 0 ? kExitMismatch : kExitOk;
}

// racelab explore -- ./program args
Subcommand add_explore_command(CLI::App& app,
                               const std::vector<std::string>* after_dashes) {
  auto options = std::make_shared<ProgramExploreOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explore",
      "explore schedules of a whole program built with -fsanitize=thread "
      "and linked with racelab::runtime: racelab explore [options] -- "
      "./program args");
  cmd->add_option("--strategy", options->strategy,
                  "pct (default), random, dfs (partial-order reduction; a "
                  "clean search of its whole tree is verified) or plain-dfs")
      ->check(CLI::IsMember({"pct", "random", "dfs", "plain-dfs"}));
  add_number_option(cmd, "--preemptions", options->preemptions, 0, 100,
                    "dfs, plain-dfs: preemption bound");
  cmd->add_flag_function(
         "--no-preemption-bound",
         [options](std::int64_t) {
           options->preemptions = sched::DfsStrategy::kUnbounded;
         },
         "dfs: no preemption bound (every class of schedules)")
      ->excludes("--preemptions");
  cmd->add_flag("--memory-model", options->memory_model,
                "let an atomic load read any store the C++ memory model "
                "allows (relaxed, acquire/release), not only the latest: "
                "which one is a decision of the schedule");
  cmd->add_flag("--no-shrink{false}", options->shrink,
                "report the failing schedule as found, without shrinking it");
  add_number_option(cmd, "--budget", options->budget, 1, 1000000,
                    "schedules (one process each) to try; default 100");
  add_number_option(cmd, "--seed", options->seed, std::uint64_t{0},
                    std::numeric_limits<std::uint64_t>::max(),
                    "pct, random: the strategy's seed");
  add_number_option(cmd, "--depth", options->depth, 1, 100, "pct: bug depth d");
  add_number_option(
      cmd, "--max-steps", options->max_steps, 1, 100000000,
      "decisions without progress after which a schedule is a livelock, "
      "given evidence that no thread can progress");
  add_number_option(cmd, "--hang-seconds", options->hang_seconds, 1, 86400,
                    "no scheduling decision for this long is a hang");
  cmd->add_option("--save-schedule", options->schedule_path,
                  "where to save the failing schedule");
  cmd->add_option_function<std::string>(
         "--fork-server",
         [options](const std::string& text) {
           // The check below names the accepted words.
           if (auto use = fork_server_use_named(text)) {
             options->fork_server = *use;
           }
         },
         "how each schedule's process starts: auto (default: copies of one "
         "process stopped before main, or a fresh process each when the "
         "program cannot be copied there, said once), on (copies, or an "
         "error) or off (a fresh process each)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  auto tests = std::make_shared<TestsOptions>();
  CLI::Option* tests_flag = cmd->add_flag(
      "--tests", tests->on,
      "the program is a test binary (GoogleTest, Catch2, or racelab's "
      "listing convention): explore each of its tests alone (its own "
      "filter among its arguments narrows them)");
  cmd->add_option("--framework", tests->framework,
                  "--tests: the binary's framework, when it is not read "
                  "from the binary: gtest, catch2 or listing")
      ->check(CLI::IsMember({"gtest", "catch2", "listing"}))
      ->needs(tests_flag);
  cmd->add_flag("--list", tests->list,
                "--tests: print the binary's tests, one per line, and "
                "explore none")
      ->needs(tests_flag);
  cmd->add_option("--test", tests->only,
                  "--tests: explore this test only (its name as listed)")
      ->needs(tests_flag)
      ->excludes("--list");
  add_number_option(cmd, "--jobs", tests->jobs, 1, 256,
                    "pct, random: run this many schedules at once (one "
                    "process each); dfs: split the tree at its first "
                    "choice and search each branch on its own worker; "
                    "--tests: explore this many tests at once. The first "
                    "finding, the verdict and the output are the same for "
                    "any number (dfs: from 2 on)");
  cmd->add_option_function<std::string>(
         "--shard",
         [tests](const std::string& text) { tests->shard = parse_shard(text); },
         "shard K of N (K/N): pct, random: the schedules i with i % N == "
         "K-1 of the search; --tests: the tests at positions i with i % N "
         "== K-1 of the listing (racelab merge joins the shards' --out "
         "folders into the report of one run)")
      ->excludes("--test")
      ->excludes("--list");
  auto out_dir = std::make_shared<std::string>();
  cmd->add_option("--out", *out_dir,
                  "write the reports (results.json, summary.md, junit.xml, "
                  "results.sarif, index.html) into this folder");
  cmd->add_option("command", options->command, "the program and its arguments")
      ->required();
  return {cmd, [cmd, options, out_dir, tests, after_dashes] {
            if (!after_dashes->empty()) options->command = *after_dashes;
            check_flags_apply(*cmd, /*stress=*/false, /*controlled=*/true,
                              options->strategy);
            if (cmd->count("--save-schedule") > 0 &&
                options->schedule_path.empty()) {
              throw UsageError("--save-schedule: empty path");
            }
            const std::string* out =
                cmd->count("--out") > 0 ? out_dir.get() : nullptr;
            if (!tests->on) {
              const bool tree = options->strategy == "dfs" ||
                                options->strategy == "plain-dfs";
              if (tree && tests->shard.count > 1) {
                throw UsageError(
                    "--shard: a " + options->strategy +
                    " search does not split into shards (each schedule "
                    "depends on the ones before; --jobs splits a dfs "
                    "tree); use pct or random");
              }
              options->jobs = tests->jobs;
              options->shard_index = tests->shard.index;
              options->shard_count = tests->shard.count;
              if (out == nullptr && tests->shard.count > 1) {
                throw UsageError(
                    "--shard: give --out, where the shard's results go for "
                    "racelab merge");
              }
            }
            if (tests->on) {
              if (cmd->count("--save-schedule") > 0) {
                throw UsageError(
                    "--save-schedule: with --tests each failing test saves "
                    "a schedule of its own; leave it out");
              }
              if (cmd->count("--test") > 0 && tests->only.empty()) {
                throw UsageError("--test: empty name");
              }
              return explore_tests_and_print(*options, *tests, out);
            }
            return explore_and_print(*options, out);
          }};
}

}  // namespace racelab::cli_internal
