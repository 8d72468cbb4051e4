// GoogleTest integration of the kit: one line per declared store (spec.h)
// yields every scenario x mode x oracle of it as a separate test.
//
//   #include "racelab/gtest.h"
//   RACELAB_SPEC_TESTS(MutexRing, ring_spec().make(make_mutex_ring));
//   RACELAB_SPEC_EXPECT_CAUGHT(SplitRing, ring_spec().make(make_split_ring));
//
// RACELAB_SPEC_TESTS(name, spec) makes tests named
//   Racelab/name.Clean/<scenario>__<mode>__<oracle>
// (oracle: tsan, invariants, linearizability, the ones the spec's options
// select; tsan tests skip in a build without ThreadSanitizer). A failing
// test prints the findings, the trace of the shrunk failing schedule, the
// path of the saved schedule file and, last, the command that replays it
// through this test binary:
//   RACELAB_REPLAY=<schedule file> <test binary> --gtest_filter=<test>
// With RACELAB_REPLAY set, the tests replay that file (it must be of the
// test's store and scenario, else the test fails saying so) and print the
// trace. Each finished test is told to the kit's listener (kit.h,
// set_kit_listener): linked with racelab_kit_reports, $RACELAB_REPORT_DIR
// gets the reports of every test.
//
// RACELAB_SPEC_EXPECT_CAUGHT(name, spec) makes one test for a known-buggy
// store, that passes when at least one scenario, in controlled mode, catches
// the bug (check_spec_caught). Stress mode is left out: whether real threads
// hit a window is a matter of luck.
//
// Link GTest::gtest_main (or your own main) and racelab::core;
// racelab_add_store_tests() in CMake does both.
//
// Plain code, no adapter (explore.h):
//
//   RACELAB_TEST(Account, TwoDeposits) {
//     std::mutex mu;
//     int balance = 0;
//     std::thread a([&] { std::lock_guard<std::mutex> l(mu); ++balance; });
//     std::thread b([&] { std::lock_guard<std::mutex> l(mu); ++balance; });
//     a.join();
//     b.join();
//     assert(balance == 2);
//   }
//
// explores schedules of the body (racelab::explore, default options) and
// fails with the findings, the trace and the saved schedule when any
// schedule fails: a data race, a deadlock, a failed assert or a crash, a
// hang. RACELAB_TEST_WITH(Suite, Name, options) takes ExploreOptions.
#ifndef RACELAB_GTEST_H_
#define RACELAB_GTEST_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>
#include <iostream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/explore.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/kit.h"
#include "racelab/kit_binary.h"
#include "racelab/spec.h"

namespace racelab {

// How gtest prints a test's parameter.
inline void PrintTo(const KitCase& c, std::ostream* os) { *os << c.name(); }

}  // namespace racelab

namespace racelab::gtest_internal {

// A parameter name: letters, digits and '_' only.
inline std::string param_name(const KitCase& c) {
  std::string name =
      c.scenario_name + "__" + to_string(c.mode) + "__" + c.oracle_name();
  for (char& ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_';
    if (!ok) ch = '_';
  }
  return name;
}

struct ParamName {
  std::string operator()(const ::testing::TestParamInfo<KitCase>& info) const {
    return param_name(info.param);
  }
};

// The test running now, as --gtest_filter names it: "Suite.Name".
inline std::string current_test_name() {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "";
  return std::string(info->test_suite_name()) + "." + info->name();
}

// `text` as one word of a POSIX shell command.
inline std::string shell_word(const std::string& text) {
  bool plain = !text.empty();
  for (char ch : text) {
    const bool ok =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') ||
        std::string_view("/._-+=:,@%").find(ch) != std::string_view::npos;
    plain = plain && ok;
  }
  if (plain) return text;
  std::string quoted = "'";
  for (char ch : text)
    quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

// The command that replays a saved schedule through this test binary:
// "RACELAB_REPLAY=<file> <binary> --gtest_filter=<test>".
inline std::string replay_command(const std::string& schedule_file) {
  char binary[4096];
  const ssize_t n = ::readlink("/proc/self/exe", binary, sizeof(binary) - 1);
  const std::string exe = n > 0
                              ? std::string(binary, static_cast<std::size_t>(n))
                              : std::string("<test binary>");
  return std::string(kReplayVariable) + "=" + shell_word(schedule_file) + " " +
         shell_word(exe) + " --gtest_filter=" + shell_word(current_test_name());
}

// How one kit test runs its case (a clean case of a spec, or its caught
// test): the search, and the replay of a schedule file as this case.
struct CaseDriver {
  std::string family;
  std::string store;
  std::string scenario;
  std::function<CheckResult()> run;
  std::function<CheckResult(const std::string& schedule_file)> replay;
};

// Runs one case (or, with RACELAB_REPLAY set, replays that file as it: the
// file must be of this case's store and scenario), judges it and tells the
// kit's listener.
inline void run_case(const KitCase& c, bool expect_caught,
                     const CaseDriver& driver) {
  const std::string replay = replay_request();
  CheckResult result;
  if (!replay.empty()) {
    std::vector<std::string> lines;
    const sched::ScheduleFile file =
        kit_internal::read_schedule(replay, &lines);
    // A driver of no one scenario (a spec's caught test) takes a schedule
    // of any of its store's.
    const bool scenario_matches =
        driver.scenario.empty() || file.scenario == driver.scenario;
    if (file.subject != driver.store || !scenario_matches) {
      ADD_FAILURE() << kit_internal::other_test_text(replay, file, driver.store,
                                                     driver.scenario);
      return;
    }
    result = driver.replay(replay);
    std::cout << "replaying " << replay << ":\n" << result.message;
  } else {
    result = driver.run();
  }
  std::string message = result.message;
  if (replay.empty() && !result.schedule_file.empty()) {
    message += "replay: " + replay_command(result.schedule_file) + "\n";
  }
  // An undecided history is no evidence of correctness: a clean-expecting
  // test fails on it too.
  const bool passed =
      expect_caught
          ? !result.clean()
          : result.clean() && result.inconclusive_linearizability == 0;
  if (expect_caught) {
    EXPECT_FALSE(result.clean()) << "racelab did not catch the bug of "
                                 << driver.store << ": " << message;
    if (passed && replay.empty()) {
      std::cout << "caught, as expected:\n" << message;
    }
  } else {
    EXPECT_TRUE(result.clean()) << message;
    EXPECT_EQ(result.inconclusive_linearizability, 0) << message;
    if (passed && replay.empty()) std::cout << "  " << message;
  }
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  KitTestRecord record;
  record.test = current_test_name();
  record.source =
      info != nullptr && info->file() != nullptr ? info->file() : "";
  record.family = driver.family;
  record.store = driver.store;
  record.kit_case = c;
  record.expect_caught = expect_caught;
  record.passed = passed;
  record.replayed = !replay.empty();
  record.result = &result;
  notify_kit_test(record);
}

inline CaseDriver spec_driver(const SpecRef& spec, const KitCase& c) {
  CaseDriver driver;
  driver.family = spec->name;
  driver.store =
      spec->options.store_name.empty() ? spec->name : spec->options.store_name;
  driver.scenario = c.scenario_name;
  driver.run = [spec, c] { return run_spec_case(spec, c); };
  driver.replay = [spec, c](const std::string& file) {
    CheckOptions options = spec->options;
    if (c.oracle) options.oracles = OracleSet{*c.oracle};
    return replay_spec(spec, c.scenario_name, file, std::move(options));
  };
  return driver;
}

// A declared spec's cases; a spec that cannot run (racelab::InputError) is
// reported once, in one line, and the binary exits with status 2.
std::vector<KitCase> spec_cases_or_exit(const SpecRef& spec, bool per_oracle,
                                        std::vector<Mode> only_modes = {});

inline void expect_spec_clean(const SpecRef& spec, const KitCase& c) {
  if (c.oracle == Oracle::kTsan && !built_with_tsan()) {
    GTEST_SKIP() << "the tsan oracle needs a ThreadSanitizer build";
  }
  run_case(c, /*expect_caught=*/false, spec_driver(spec, c));
}

// The one case of a spec's caught test: every scenario in controlled mode.
inline std::vector<KitCase> spec_caught_case_or_exit(const SpecRef& spec) {
  spec_cases_or_exit(spec, /*per_oracle=*/false, {Mode::kControlled});
  return {KitCase{0, "any_scenario", Mode::kControlled, std::nullopt}};
}

// Passes when at least one scenario of the spec catches the bug
// (check_spec_caught); RACELAB_REPLAY replays a schedule of any of them.
inline void expect_spec_caught(const SpecRef& spec, const KitCase& c) {
  CaseDriver driver = spec_driver(spec, c);
  driver.scenario = "";
  driver.run = [spec] { return check_spec_caught(spec); };
  driver.replay = [spec](const std::string& file) {
    std::vector<std::string> lines;
    const std::string scenario =
        kit_internal::read_schedule(file, &lines).scenario;
    return replay_spec(spec, scenario, file, spec->options);
  };
  run_case(c, /*expect_caught=*/true, driver);
}

}  // namespace racelab::gtest_internal

// A declared spec (spec.h) as tests named Racelab/<name>.Clean/<scenario>__
// <mode>__<oracle>: every scenario x mode x selected oracle must be clean.
//   RACELAB_SPEC_TESTS(MutexRing, ring_spec().make(make_mutex_ring));
#define RACELAB_SPEC_TESTS(name, ...)                                       \
  static const ::racelab::SpecRef& name##_RacelabSpec() {                   \
    static const ::racelab::SpecRef spec = ::racelab::SpecRef(__VA_ARGS__); \
    return spec;                                                            \
  }                                                                         \
  class name : public ::testing::TestWithParam<::racelab::KitCase> {};      \
  TEST_P(name, Clean) {                                                     \
    ::racelab::gtest_internal::expect_spec_clean(name##_RacelabSpec(),      \
                                                 GetParam());               \
  }                                                                         \
  INSTANTIATE_TEST_SUITE_P(                                                 \
      Racelab, name,                                                        \
      ::testing::ValuesIn(::racelab::gtest_internal::spec_cases_or_exit(    \
          name##_RacelabSpec(), /*per_oracle=*/true)),                      \
      ::racelab::gtest_internal::ParamName{})

// A known-buggy store: one test, Racelab/<name>.Caught/any_scenario__
// controlled__all, that passes when at least one of the spec's scenarios,
// run in controlled mode and judged by the selected oracles together, finds
// something (a bug only a hand-written scenario reaches is caught). Its
// message names the scenarios that caught the bug and those that did not.
#define RACELAB_SPEC_EXPECT_CAUGHT(name, ...)                                  \
  static const ::racelab::SpecRef& name##_RacelabSpec() {                      \
    static const ::racelab::SpecRef spec = ::racelab::SpecRef(__VA_ARGS__);    \
    return spec;                                                               \
  }                                                                            \
  class name : public ::testing::TestWithParam<::racelab::KitCase> {};         \
  TEST_P(name, Caught) {                                                       \
    ::racelab::gtest_internal::expect_spec_caught(name##_RacelabSpec(),        \
                                                  GetParam());                 \
  }                                                                            \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Racelab, name,                                                           \
      ::testing::ValuesIn(::racelab::gtest_internal::spec_caught_case_or_exit( \
          name##_RacelabSpec())),                                              \
      ::racelab::gtest_internal::ParamName{})

#define RACELAB_TEST_WITH(suite, test, options)                             \
  static void suite##_##test##_RacelabBody();                               \
  TEST(suite, test) {                                                       \
    ::racelab::ExploreOptions racelab_options = (options);                  \
    if (racelab_options.name == "explore") {                                \
      racelab_options.name = #suite "." #test;                              \
    }                                                                       \
    const ::racelab::ExploreResult racelab_result =                         \
        ::racelab::explore(&suite##_##test##_RacelabBody, racelab_options); \
    EXPECT_FALSE(racelab_result.found()) << racelab_result.message;         \
  }                                                                         \
  static void suite##_##test##_RacelabBody()

#define RACELAB_TEST(suite, test) \
  RACELAB_TEST_WITH(suite, test, ::racelab::ExploreOptions{})

#endif  // RACELAB_GTEST_H_
