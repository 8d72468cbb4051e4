// End-to-end tests of the racelab command line: real child processes, real
// files, the real TSan build. Each test runs the binary and checks its exit
// status, its output and the results.json it wrote.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Output {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs a shell command line, capturing stdout and stderr.
Output run(const std::string& command) {
  static int counter = 0;
  fs::path err_file =
      fs::temp_directory_path() / ("racelab_e2e_" + std::to_string(getpid()) +
                                   "_" + std::to_string(counter++) + ".err");
  Output result;
  FILE* pipe = popen((command + " 2>" + err_file.string()).c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    result.out.append(buf.data(), n);
  int status = pclose(pipe);
  result.status =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(err_file);
  result.err.assign(std::istreambuf_iterator<char>(err), {});
  fs::remove(err_file);
  return result;
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() /
                 ("racelab_e2e_" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  return dir;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

const nlohmann::json& find_case(const nlohmann::json& results,
                                const std::string& subject,
                                const std::string& scenario) {
  for (const nlohmann::json& c : results.at("cases")) {
    if (c.at("subject") == subject && c.at("scenario") == scenario) return c;
  }
  static const nlohmann::json none;
  ADD_FAILURE() << "no case " << subject << " x " << scenario;
  return none;
}

bool has_kind(const nlohmann::json& c, const std::string& kind) {
  for (const nlohmann::json& f : c.at("findings")) {
    if (f.at("kind") == kind) return true;
  }
  return false;
}

#if defined(RACELAB_TSAN)
constexpr bool kTsanBuild = true;
#else
constexpr bool kTsanBuild = false;
#endif
#if defined(RACELAB_ASAN)
constexpr bool kAsanBuild = true;
#else
constexpr bool kAsanBuild = false;
#endif

// The gate judges the TSan build; other builds refuse it with a usage error.
#define REQUIRE_TSAN_BUILD()                                               \
  if (!kTsanBuild) GTEST_SKIP() << "the gate runs on the ThreadSanitizer " \
                                   "build"

const std::string kRacelab = RACELAB_BINARY;
const std::string kFixture = RACELAB_FIXTURE_BINARY;

struct BadInput {
  std::string args;
  std::string mentions;
};

class CliRejectsBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliRejectsBadInput, OneLineAndExitTwo) {
  Output o = run(kRacelab + " " + GetParam().args);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(GetParam().mentions), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, CliRejectsBadInput,
    ::testing::Values(
        BadInput{"run --subject nope/x --scenario seed_slow_reader", "nope/x"},
        BadInput{"run --subject state/snapshot --scenario nope", "nope"},
        BadInput{
            "run --subject state/snapshot --scenario seed_concurrent_sessions",
            "does not apply"},
        BadInput{"run --subject state/snapshot --scenario seed_slow_reader "
                 "--mode fast",
                 "fast"},
        BadInput{
            "run --subject state/snapshot --scenario seed_slow_reader --runs 0",
            "--runs"},
        BadInput{"gate --mode sometimes", "sometimes"},
        BadInput{"gate --bogus-flag", "bogus"},
        BadInput{"run --subject state/snapshot --scenario seed_slow_reader "
                 "--out /dev/null",
                 "/dev/null"},
        BadInput{"frobnicate", "frobnicate"}));

TEST(Cli, GateRejectsBadInput) {
  REQUIRE_TSAN_BUILD();
  for (const auto& [args, mentions] :
       std::vector<std::pair<std::string, std::string>>{
           {"gate --out /dev/null", "/dev/null"},
           {"gate --subject no_such_subject", "no case"}}) {
    Output o = run(kRacelab + " " + args);
    EXPECT_EQ(o.status, 2) << args << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(mentions), std::string::npos) << o.err;
  }
}

TEST(Cli, GateNeedsTheTsanBuild) {
  if (kTsanBuild) GTEST_SKIP() << "this is the TSan build";
  Output o = run(kRacelab + " gate --runs 1");
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_NE(o.err.find("ThreadSanitizer build"), std::string::npos) << o.err;
}

// Under ASan the escaping reference and the freed iterator node are
// use-after-free, reported by AddressSanitizer in the case's child process.
TEST(AsanBuild, UseAfterFreeIsCaughtInStressMode) {
  if (!kAsanBuild) GTEST_SKIP() << "needs the AddressSanitizer build";
  for (const char* c : {"--subject checkpoint/escaping_index --scenario "
                        "index_reader_vs_committer",
                        "--subject state/unlock_during_iteration --scenario "
                        "erase_during_iteration"}) {
    fs::path out = fresh_dir("asan");
    Output o = run(kRacelab + " run --runs 10 " + c + " --out " + out.string());
    EXPECT_EQ(o.status, 0) << c << "\n" << o.out << o.err;
    const nlohmann::json result =
        read_json(out / "results.json").at("cases").at(0);
    EXPECT_TRUE(has_kind(result, "use_after_free")) << c << "\n" << o.out;
  }
}

TEST(Cli, ListShowsCatalogAndExpectations) {
  Output o = run(kRacelab + " list");
  ASSERT_EQ(o.status, 0) << o.err;
  for (const char* subject :
       {"checkpoint/unsynchronized", "checkpoint/mutex",
        "checkpoint/escaping_index", "checkpoint/split_lock",
        "checkpoint/sharded", "state/unlock_during_iteration", "state/snapshot",
        "state/hold_lock", "state/copy_on_write"}) {
    EXPECT_NE(o.out.find(subject), std::string::npos) << subject;
  }
  EXPECT_NE(o.out.find("expectations"), std::string::npos);
}

// The acceptance run: 20 stress runs of every case.
TEST(Gate, StressModeMeetsTheTableInBothDirections) {
  REQUIRE_TSAN_BUILD();
  fs::path out = fresh_dir("gate_stress");
  Output o =
      run(kRacelab + " gate --mode stress --runs 20 --out " + out.string());
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  nlohmann::json results = read_json(out / "results.json");
  EXPECT_EQ(results.at("schema"), 1);
  EXPECT_EQ(results.at("mismatches"), 0);

  const nlohmann::json& seed = find_case(results, "checkpoint/unsynchronized",
                                         "seed_concurrent_sessions");
  EXPECT_EQ(seed.at("runs"), 20);
  EXPECT_GE(seed.at("runs_with_finding").get<int>(), 19);
  EXPECT_TRUE(has_kind(seed, "data_race"));

  const nlohmann::json& slow =
      find_case(results, "state/unlock_during_iteration", "seed_slow_reader");
  EXPECT_GE(slow.at("runs_with_finding").get<int>(), 1);

  const nlohmann::json& deadlock =
      find_case(results, "state/hold_lock", "reentrant_yield");
  EXPECT_EQ(deadlock.at("observed"), "deadlock");

  for (const nlohmann::json& c : results.at("cases")) {
    const std::string subject = c.at("subject");
    bool fixed =
        subject == "checkpoint/mutex" || subject == "checkpoint/sharded" ||
        subject == "state/snapshot" || subject == "state/copy_on_write" ||
        (subject == "state/hold_lock" && c.at("scenario") != "reentrant_yield");
    if (!fixed) continue;
    EXPECT_EQ(c.at("runs_with_finding"), 0)
        << subject << " x " << c.at("scenario");
    EXPECT_EQ(c.at("runs"), 20);
  }
}

TEST(Gate, FlippedExpectationsTurnItRedInBothDirections) {
  REQUIRE_TSAN_BUILD();
  fs::path out = fresh_dir("gate_flipped");
  Output o = run(
      kFixture +
      " gate --runs 3 --subject checkpoint/ --scenario seed_concurrent --out " +
      out.string());
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  nlohmann::json results = read_json(out / "results.json");
  EXPECT_GE(results.at("mismatches").get<int>(), 2);
  const nlohmann::json& missed = find_case(results, "checkpoint/unsynchronized",
                                           "seed_concurrent_sessions");
  EXPECT_FALSE(missed.at("match").get<bool>());
  EXPECT_NE(missed.at("mismatch").get<std::string>().find("expected clean"),
            std::string::npos);
  const nlohmann::json& flagged =
      find_case(results, "checkpoint/mutex", "seed_concurrent_sessions");
  EXPECT_FALSE(flagged.at("match").get<bool>());
  EXPECT_NE(
      flagged.at("mismatch").get<std::string>().find("no run found anything"),
      std::string::npos);

  // The JUnit and SARIF reports of the same run show both mismatches.
  std::ifstream junit_in(out / "junit.xml");
  std::string junit((std::istreambuf_iterator<char>(junit_in)), {});
  const std::string failures =
      "failures=\"" + std::to_string(results.at("mismatches").get<int>()) + "\"";
  EXPECT_NE(junit.find(failures), std::string::npos) << junit.substr(0, 400);
  EXPECT_NE(junit.find("<failure"), std::string::npos);
  nlohmann::json sarif = read_json(out / "results.sarif");
  int errors = 0;
  for (const nlohmann::json& r : sarif.at("runs").at(0).at("results")) {
    errors += r.value("level", "") == "error";
  }
  EXPECT_GE(errors, 2) << "a missed bug and an unexpected finding are both errors";
}

TEST(Gate, CrashesHangsAndDeadlocksAreFindingsNotHarnessFailures) {
  REQUIRE_TSAN_BUILD();
  fs::path out = fresh_dir("gate_fixture");
  Output o =
      run(kFixture +
          " gate --runs 2 --run-timeout-ms 3000 --subject fixture/ --out " +
          out.string());
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  nlohmann::json results = read_json(out / "results.json");
  EXPECT_EQ(find_case(results, "fixture/crash", "fixture_run").at("observed"),
            "crash");
  EXPECT_EQ(find_case(results, "fixture/hang", "fixture_run").at("observed"),
            "timeout");
  const nlohmann::json& dl =
      find_case(results, "fixture/self_deadlock", "fixture_run");
  EXPECT_EQ(dl.at("observed"), "deadlock");
  EXPECT_NE(dl.at("findings")
                .at(0)
                .at("summary")
                .get<std::string>()
                .find("fixture.mu"),
            std::string::npos);
}

// Controlled mode: every case of the table, one search of up to 1000
// schedules each, judged in both directions.
TEST(Gate, ControlledModeMeetsTheTableInBothDirections) {
  REQUIRE_TSAN_BUILD();
  fs::path out = fresh_dir("gate_controlled");
  Output o = run(kRacelab + " gate --mode controlled --budget 1000 --out " +
                 out.string());
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  nlohmann::json results = read_json(out / "results.json");
  EXPECT_EQ(results.at("mismatches"), 0);
  for (const nlohmann::json& c : results.at("cases")) {
    EXPECT_EQ(c.at("mode"), "controlled");
    if (c.at("expected") == "clean") {
      EXPECT_EQ(c.at("schedules"), 1000)
          << c.at("subject") << " x " << c.at("scenario");
    } else {
      EXPECT_TRUE(c.contains("trace"))
          << c.at("subject") << " x " << c.at("scenario");
    }
  }
  // The self-deadlock is found on the first schedule that reaches it, with
  // its cycle, not by a timeout.
  const nlohmann::json& dl =
      find_case(results, "state/hold_lock", "reentrant_yield");
  EXPECT_EQ(dl.at("observed"), "deadlock");
  EXPECT_EQ(dl.at("first_failing_schedule"), 0);
  EXPECT_NE(dl.at("findings")
                .at(0)
                .at("detail")
                .get<std::string>()
                .find("'state.mu'"),
            std::string::npos);
}

TEST(Gate, AllModesLandInOneResultsFile) {
  REQUIRE_TSAN_BUILD();
  fs::path out = fresh_dir("gate_all");
  Output o = run(kRacelab +
                 " gate --mode all --runs 3 --budget 200 --subject "
                 "state/hold_lock --out " +
                 out.string());
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  nlohmann::json results = read_json(out / "results.json");
  std::set<std::string> modes;
  for (const nlohmann::json& c : results.at("cases"))
    modes.insert(c.at("mode"));
  EXPECT_EQ(modes, (std::set<std::string>{"stress", "controlled"}));
}

class Replay : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kTsanBuild)
      GTEST_SKIP() << "schedules are recorded by the TSan build here";
    dir_ = fresh_dir("replay");
    fs::create_directories(dir_);
    schedule_ = dir_ / "split_lock.schedule";
    Output o =
        run(kRacelab +
            " run --mode controlled --subject checkpoint/split_lock "
            "--scenario same_session_first_commit --seed 7 --save-schedule " +
            schedule_.string());
    ASSERT_EQ(o.status, 0) << o.out << o.err;
  }

  std::string schedule_text() {
    std::ifstream in(schedule_);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // Writes `text` as a schedule file and replays it.
  Output replay_text(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return run(kRacelab + " replay " + path.string());
  }

  fs::path dir_, schedule_;
};

TEST_F(Replay, SameTraceByteForByteAndSameVerdict) {
  Output first = run(kRacelab + " replay " + schedule_.string());
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("not_linearizable"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("thread 0"), std::string::npos) << first.out;
  for (int i = 0; i < 10; ++i) {
    Output again = run(kRacelab + " replay " + schedule_.string());
    EXPECT_EQ(again.status, first.status);
    ASSERT_EQ(again.out, first.out) << "replay " << i << " differs";
  }
}

TEST_F(Replay, BadScheduleFilesAreInputErrors) {
  const std::string good = schedule_text();
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
  };
  const size_t decisions = good.find("decisions ");
  struct Bad {
    std::string name, text, mentions;
  };
  const std::vector<Bad> cases = {
      {"truncated", good.substr(0, decisions + 12), "truncated.schedule"},
      {"version", with("racelab-schedule 1", "racelab-schedule 9"), "version"},
      {"subject",
       with("subject checkpoint/split_lock", "subject checkpoint/nope"),
       "nope"},
      {"thread", with("\nend", " 77\nend"), "77"},
      {"program", with("commit(", "frobnicate("), "frobnicate"},
      // A decision naming a thread that is not enabled at that step: thread 1
      // as the very first decision is possible (the shrunk program still has
      // two threads), so make every decision 1 and let the run reach a step
      // where thread 1 is done.
      {"impossible",
       good.substr(0, decisions) + "decisions 400\n" +
           [] {
             std::string d;
             for (int i = 0; i < 400; ++i) d += "1 ";
             return d;
           }() +
           "\nend\n",
       "not enabled"},
  };
  for (const Bad& bad : cases) {
    Output o = replay_text(bad.name + ".schedule", bad.text);
    EXPECT_EQ(o.status, 2) << bad.name << ": " << o.out << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1)
        << bad.name << ": " << o.err;
    EXPECT_NE(o.err.find(bad.mentions), std::string::npos)
        << bad.name << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << bad.name << ": " << o.out;
  }
  Output missing =
      run(kRacelab + " replay " + (dir_ / "no-such-file").string());
  EXPECT_EQ(missing.status, 2) << missing.err;
}

// Under ASan the freed node under the paused iterator is a use-after-free in
// controlled mode too.
TEST(AsanBuild, UseAfterFreeIsCaughtInControlledMode) {
  if (!kAsanBuild) GTEST_SKIP() << "needs the AddressSanitizer build";
  fs::path out = fresh_dir("asan_controlled");
  Output o =
      run(kRacelab +
          " run --mode controlled --subject state/unlock_during_iteration "
          "--scenario erase_during_iteration --out " +
          out.string());
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_TRUE(has_kind(read_json(out / "results.json").at("cases").at(0),
                       "use_after_free"))
      << o.out;
}

}  // namespace
