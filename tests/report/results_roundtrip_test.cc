// results.json read back (case_result_from_json, read_gate_output) and
// shards joined (merge_gate_outputs): the reports written from what was read
// back, or from joined shards, are byte for byte those of the original gate
// result; shards of different gates, a shard twice or missing, and an
// interrupted shard are refused naming the folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "racelab/gate.h"
#include "racelab/json.h"
#include "racelab/merge.h"
#include "racelab/report.h"
#include "racelab/runner.h"
#include "report_fixture.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

using testing::slurp;

class ResultsRoundTrip : public testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    result_ = testing::fixture_result();
    result_.run_id = "20250101T000000Z-0123456789abcdef";
    result_.cases_total = result_.cases.size();
    options_ = testing::fixture_options();
  }

  // The shard K of N of the fixture, written into its own folder.
  fs::path write_shard(int k, int n, const std::string& name) {
    GateResult shard;
    shard.run_id = "20250101T000000Z-00000000000000" + std::to_string(10 + k);
    shard.cases_total = result_.cases.size();
    for (std::size_t i = 0; i < result_.cases.size(); ++i) {
      if (static_cast<int>(i % n) != k - 1) continue;
      shard.cases.push_back(result_.cases[i]);
      shard.case_index.push_back(i);
      shard.mismatches += result_.cases[i].mismatch.empty() ? 0 : 1;
    }
    GateOptions options = options_;
    options.shard_index = k;
    options.shard_count = n;
    const fs::path dir = root_ / name;
    write_results_json(shard, options, dir.string());
    return dir;
  }

  // Every report and log of `dir`, concatenated.
  static std::string everything(const fs::path& dir) {
    std::string all;
    for (const char* name : {"results.json", "junit.xml", "results.sarif",
                             "summary.md", "index.html"}) {
      all += std::string(name) + "\n" + slurp(dir / name);
    }
    for (const auto& entry : fs::directory_iterator(dir / "logs"))
      all += entry.path().filename().string() + "\n" + slurp(entry.path());
    return all;
  }

  GateResult result_;
  GateOptions options_;
};

TEST_F(ResultsRoundTrip, EveryCaseReadsBackToTheSameJson) {
  for (const CaseResult& c : result_.cases) {
    const nlohmann::json j = to_json(c);
    EXPECT_EQ(to_json(case_result_from_json(j)), j) << c.subject;
  }
}

TEST_F(ResultsRoundTrip, ReportsFromTheReadBackResultAreTheSame) {
  const fs::path original = root_ / "original";
  write_results_json(result_, options_, original.string());
  const GateOutput read = read_gate_output(original);
  EXPECT_EQ(read.result.run_id, result_.run_id);
  EXPECT_EQ(read.result.cases.size(), result_.cases.size());
  EXPECT_EQ(read.result.cases[0].first_failure_log,
            result_.cases[0].first_failure_log);
  const fs::path again = root_ / "again";
  write_results_json(read.result, read.options, again.string());
  EXPECT_EQ(everything(again), everything(original));
}

TEST_F(ResultsRoundTrip, JoinedShardsGiveTheReportsOfTheWholeGate) {
  const fs::path whole = root_ / "whole";
  write_results_json(result_, options_, whole.string());
  for (int n : {2, 3, 7}) {
    std::vector<GateOutput> shards;
    for (int k = n; k >= 1; --k)  // any order
      shards.push_back(read_gate_output(write_shard(
          k, n, "s" + std::to_string(k) + "of" + std::to_string(n))));
    GateOutput merged = merge_gate_outputs(shards);
    ASSERT_EQ(merged.result.merged_from.size(), static_cast<std::size_t>(n));
    for (int k = 1; k <= n; ++k) {
      EXPECT_EQ(merged.result.merged_from[k - 1],
                "20250101T000000Z-00000000000000" + std::to_string(10 + k));
    }
    EXPECT_NE(merged.result.run_id, result_.run_id);
    EXPECT_EQ(merged.result.mismatches, result_.mismatches);
    // Apart from its own run id and where it came from, the joined set is the
    // whole gate's, byte for byte.
    merged.result.run_id = result_.run_id;
    merged.result.merged_from.clear();
    const fs::path out = root_ / ("merged" + std::to_string(n));
    write_results_json(merged.result, merged.options, out.string());
    EXPECT_EQ(everything(out), everything(whole)) << n << " shards";
  }
}

void expect_refused(const std::vector<GateOutput>& shards,
                    const std::string& mentions) {
  try {
    merge_gate_outputs(shards);
    ADD_FAILURE() << "merged; expected a refusal mentioning " << mentions;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos)
        << e.what();
  }
}

TEST_F(ResultsRoundTrip, IncompatibleShardsAreRefused) {
  const GateOutput one = read_gate_output(write_shard(1, 2, "one"));
  const GateOutput two = read_gate_output(write_shard(2, 2, "two"));
  expect_refused({one}, "shard 2/2 missing");
  expect_refused({one, one}, "given twice");
  GateOutput other_runs = two;
  other_runs.options.run.runs = 5;
  expect_refused({one, other_runs}, "runs");
  GateOutput other_seed = two;
  other_seed.options.run.request.seed = 8;
  expect_refused({one, other_seed}, "seed");
  GateOutput other_budget = two;
  other_budget.options.run.request.budget = 5;
  expect_refused({one, other_budget}, "budget");
  GateOutput other_modes = two;
  other_modes.options.modes = {Mode::kStress};
  expect_refused({one, other_modes}, "modes");
  GateOutput three = read_gate_output(write_shard(2, 3, "three"));
  expect_refused({one, three}, "shard count");
  GateOutput interrupted = two;
  interrupted.result.interrupted = true;
  expect_refused({one, interrupted}, "interrupted");
  EXPECT_NO_THROW(merge_gate_outputs({two, one}));
}

// Shards record the identity of their run (run_identity): the command,
// the program by its bytes, its arguments and options. Shards of other
// runs are refused naming what differs; the program's path may differ.
TEST_F(ResultsRoundTrip, ShardsOfAnotherRunAreRefused) {
  const fs::path program = root_ / "program";
  std::ofstream(program) << "the program's bytes";
  const fs::path copy = root_ / "elsewhere";
  fs::copy_file(program, copy);
  const fs::path other = root_ / "other_program";
  std::ofstream(other) << "another program's bytes";
  const nlohmann::json search = {{"strategy", "pct"}, {"seed", 1}};
  auto shard = [&](int k, const std::string& name, nlohmann::json identity) {
    options_.identity = std::move(identity);
    return read_gate_output(write_shard(k, 2, name));
  };
  const std::vector<std::string> command = {program.string(), "a", "b"};
  const GateOutput one =
      shard(1, "id_one", run_identity("explore --tests", command, search));
  EXPECT_EQ(one.options.identity.at("program").at("path"), program.string());
  EXPECT_NO_THROW(merge_gate_outputs(
      {one, shard(2, "id_copy",
                  run_identity("explore --tests", {copy.string(), "a", "b"},
                               search))}));
  expect_refused({one, shard(2, "id_other_program",
                             run_identity("explore --tests",
                                          {other.string(), "a", "b"}, search))},
                 "(program ");
  expect_refused(
      {one, shard(2, "id_other_arguments",
                  run_identity("explore --tests", {program.string(), "a", "c"},
                               search))},
      R"(program arguments ["a","b"] there, ["a","c"] here)");
  nlohmann::json other_seed = search;
  other_seed["seed"] = 2;
  expect_refused(
      {one, shard(2, "id_other_seed",
                  run_identity("explore --tests", command, other_seed))},
      "option 'seed' 1 there, 2 here");
  expect_refused(
      {one, shard(2, "id_gate", run_identity("gate", {}, nlohmann::json{}))},
      "command");
  expect_refused({one, shard(2, "id_none", nullptr)}, "run identity");
}

TEST_F(ResultsRoundTrip, AnIdentityNotOfItsFingerprintIsRefused) {
  options_.identity = run_identity("gate", {}, {{"catalog", "1234"}});
  const fs::path dir = write_shard(1, 2, "edited");
  nlohmann::json doc = nlohmann::json::parse(slurp(dir / "results.json"));
  doc["identity"]["options"]["catalog"] = "5678";
  std::ofstream(dir / "results.json", std::ios::trunc) << doc.dump();
  try {
    read_gate_output(dir);
    ADD_FAILURE() << "read an edited identity";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fingerprint"), std::string::npos)
        << e.what();
  }
  doc["identity"]["options"]["catalog"] = nlohmann::json::array();
  std::ofstream(dir / "results.json", std::ios::trunc) << doc.dump();
  EXPECT_THROW(read_gate_output(dir), InputError);
}

// merge never writes where it reads: --out is none of the shards, by any
// path, nor inside or around one.
TEST_F(ResultsRoundTrip, AnOutFolderAmongTheShardsIsRefused) {
  const fs::path one = write_shard(1, 2, "one");
  const fs::path two = write_shard(2, 2, "two");
  fs::create_directory_symlink(one, root_ / "link");
  for (const fs::path& out :
       {one, root_ / "link", root_ / "link" / "sub", two / "logs" / "x",
        root_ / "two" / ".." / "two" / "", root_, fs::path("/")}) {
    EXPECT_THROW(check_out_apart({one, two}, out), InputError) << out;
  }
  EXPECT_NO_THROW(check_out_apart({one, two}, root_ / "merged"));
  EXPECT_NO_THROW(check_out_apart({one, two}, root_ / "one.merged"));
}

TEST_F(ResultsRoundTrip, BadFoldersAreInputErrorsNamingTheFile) {
  EXPECT_THROW(read_gate_output(root_ / "nowhere"), InputError);
  const fs::path dir = write_shard(1, 2, "bad");
  auto refused = [&](const std::string& text, const std::string& mentions) {
    std::ofstream(dir / "results.json") << text;
    try {
      read_gate_output(dir);
      ADD_FAILURE() << "read " << text.substr(0, 40);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("results.json"), std::string::npos)
          << e.what();
    }
  };
  const std::string good = slurp(dir / "results.json");
  refused("{not json", "not valid JSON");
  refused(R"({"schema": 1})", "schema 1");
  refused(R"({"schema": 2})", "malformed");
  std::string bad_index = good;
  bad_index.replace(bad_index.find("\"index\": 0"), 10, "\"index\": 1");
  refused(bad_index, "does not belong to shard 1/2");
  std::ofstream(dir / "results.json") << good;
  fs::remove_all(dir / "logs");
  EXPECT_THROW(read_gate_output(dir), InputError) << "a log it names is gone";
}

// The typed trace in results.json: every kind by its one name, the lock of a
// lock row as fields of the row, read back to the same rows.
TEST(CaseJson, TheSearchOfAControlledCaseReadsBack) {
  for (const CaseResult& c : testing::verified_and_clean_result().cases) {
    const nlohmann::json j = to_json(c);
    EXPECT_EQ(j.at("strategy"), c.strategy);
    EXPECT_EQ(j.at("budget"), c.budget);
    const CaseResult back = case_result_from_json(j);
    EXPECT_EQ(back.strategy, c.strategy);
    EXPECT_EQ(back.budget, c.budget);
    EXPECT_EQ(to_json(back), j) << c.scenario;
  }
}

TEST(TraceJson, EveryKindAndTheLockFieldsRoundTrip) {
  sched::Trace trace;
  trace.thread_count = 2;
  trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "set(k1,v) begins"},
      {0, 0, sched::TraceKind::kLockAcquired, "acquired 'mu' (shared)", "mu",
       true},
      {0, 0, sched::TraceKind::kLockReleased, "released 'mu'", "mu"},
      {1, 1, sched::TraceKind::kLockWaited, "blocked on 'state.mu'",
       "state.mu"},
      {1, 1, sched::TraceKind::kSwitch, "preempted at 'lock'"},
      {2, 1, sched::TraceKind::kException, "threw: boom"},
      {2, 0, sched::TraceKind::kOperation, "-> ok"},
  };
  const nlohmann::json j = to_json(trace);
  EXPECT_EQ(j.at("threads"), 2);
  EXPECT_EQ(j.at("rows")[1].at("kind"), "lock acquired");
  EXPECT_EQ(j.at("rows")[1].at("lock"), "mu");
  EXPECT_EQ(j.at("rows")[1].at("shared"), true);
  EXPECT_FALSE(j.at("rows")[2].contains("shared"));
  EXPECT_FALSE(j.at("rows")[0].contains("lock"));
  EXPECT_EQ(j.at("rows")[5].at("kind"), "exception");
  EXPECT_EQ(trace_from_json(j), trace);
  // Through the text of results.json, too.
  EXPECT_EQ(trace_from_json(nlohmann::json::parse(j.dump())), trace);
  for (sched::TraceKind kind :
       {sched::TraceKind::kOperation, sched::TraceKind::kLockAcquired,
        sched::TraceKind::kLockReleased, sched::TraceKind::kLockWaited,
        sched::TraceKind::kSwitch, sched::TraceKind::kException}) {
    EXPECT_EQ(sched::parse_trace_kind(sched::to_string(kind)), kind);
  }
  nlohmann::json bad = j;
  bad["rows"][0]["kind"] = "op";  // not a name of the table
  EXPECT_THROW(trace_from_json(bad), nlohmann::json::exception);
  EXPECT_EQ(sched::parse_trace_kind("op"), std::nullopt);
}

// A case with a trace reads back with the trace typed: the swimlane's lock
// holds come from the rows' lock fields.
TEST(TraceJson, ACaseReadsBackWithItsTypedTrace) {
  const GateResult fixture = testing::fixture_result();
  for (const CaseResult& c : fixture.cases) {
    const CaseResult back = case_result_from_json(to_json(c));
    EXPECT_EQ(back.schedule.trace, c.schedule.trace) << c.subject;
    EXPECT_EQ(back.schedule.program, c.schedule.program) << c.subject;
  }
}

}  // namespace
}  // namespace racelab
