// Catch2 (v2) integration of the kit: one line per declared store (spec.h)
// registers one test case per scenario x mode, judged by the spec's oracles.
//
//   #include <catch2/catch.hpp>
//   #include "racelab/catch2.h"
//   RACELAB_CATCH2_SPEC_TESTS(MutexRing, ring_spec());
//   RACELAB_CATCH2_SPEC_EXPECT_CAUGHT(SplitRing, split_ring_spec());
//
// Test cases are named "racelab: <store> x <scenario> (<mode>)" and tagged
// [racelab][<mode>]; the expect-caught variant is one case per spec,
// "racelab: <store> x any_scenario (controlled)", tagged [caught], that
// passes when at least one scenario catches the bug. `tests "[controlled]"`
// runs controlled mode only. A failing case prints the findings, the trace
// of the shrunk failing schedule and the path of the saved schedule file.
// Each finished case is told to the kit's listener (the reports of
// $RACELAB_REPORT_DIR).
#ifndef RACELAB_CATCH2_H_
#define RACELAB_CATCH2_H_

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "racelab/kit.h"
#include "racelab/kit_binary.h"
#include "racelab/spec.h"

namespace racelab::catch2_internal {

// Tells the kit's listener (kit.h) of a finished case.
inline void tell_listener(const std::string& shown_name,
                          const std::string& family, const std::string& store,
                          const char* file, const KitCase& c, bool expect_bug,
                          const CheckResult& result) {
  KitTestRecord record;
  record.test = "racelab: " + shown_name + " x " + c.scenario_name + " (" +
                to_string(c.mode) + ")";
  record.source = file != nullptr ? file : "";
  record.family = family;
  record.store = store;
  record.kit_case = c;
  record.expect_caught = expect_bug;
  record.passed = expect_bug != result.clean();
  record.result = &result;
  notify_kit_test(record);
}

// One case: runs it, checks the verdict, tells the listener.
class CaseInvoker final : public Catch::ITestInvoker {
 public:
  struct Names {
    std::string shown;   // in the test's name
    std::string family;  // for the reports
    std::string store;
  };
  CaseInvoker(std::function<CheckResult()> run, Names names, KitCase c,
              bool expect_bug, const char* file)
      : run_(std::move(run)),
        names_(std::move(names)),
        case_(std::move(c)),
        expect_bug_(expect_bug),
        file_(file) {}
  void invoke() const override {
    CheckResult result = run_();
    INFO(result.message);
    if (expect_bug_) {
      CHECK_FALSE(result.clean());
    } else {
      CHECK(result.clean());
      // An undecided history is no evidence of correctness.
      CHECK(result.inconclusive_linearizability == 0);
    }
    tell_listener(names_.shown, names_.family, names_.store, file_, case_,
                  expect_bug_, result);
  }

 private:
  std::function<CheckResult()> run_;
  Names names_;
  KitCase case_;
  bool expect_bug_;
  const char* file_;
};

inline int register_spec_cases(const SpecRef& spec, bool expect_bug,
                               const char* file, std::size_t line) {
  const std::string store =
      spec->options.store_name.empty() ? spec->name : spec->options.store_name;
  if (expect_bug) {
    // One case for the spec: caught when any scenario catches the bug.
    spec_cases(spec, /*per_oracle=*/false, {Mode::kControlled});
    const KitCase c{0, "any_scenario", Mode::kControlled, std::nullopt};
    const std::string name =
        "racelab: " + spec->name + " x any_scenario (controlled)";
    Catch::AutoReg(
        new CaseInvoker([spec] { return check_spec_caught(spec); },
                        {spec->name, spec->name, store}, c, true, file),
        Catch::SourceLineInfo(file, line), Catch::StringRef(),
        Catch::NameAndTags(Catch::StringRef(name),
                           Catch::StringRef("[racelab][controlled][caught]")));
    return 1;
  }
  const std::vector<KitCase> cases = spec_cases(spec, /*per_oracle=*/false);
  for (const KitCase& c : cases) {
    const std::string name = "racelab: " + spec->name + " x " +
                             c.scenario_name + " (" + to_string(c.mode) + ")";
    const std::string tags = std::string("[racelab][") + to_string(c.mode) +
                             "]" + (expect_bug ? "[caught]" : "");
    Catch::AutoReg(
        new CaseInvoker([spec, c] { return run_spec_case(spec, c); },
                        {spec->name, spec->name, store}, c, expect_bug, file),
        Catch::SourceLineInfo(file, line), Catch::StringRef(),
        Catch::NameAndTags(Catch::StringRef(name), Catch::StringRef(tags)));
  }
  return static_cast<int>(cases.size());
}

}  // namespace racelab::catch2_internal

// A declared spec (spec.h): one test case per scenario x mode, judged by the
// spec's oracles, that must be clean; or one test case for the spec,
// "racelab: <spec> x any_scenario (controlled)", that passes when at least
// one scenario catches the bug (check_spec_caught).
#define RACELAB_CATCH2_SPEC_TESTS(name, ...)           \
  static const int name##_racelab_catch2_clean =       \
      ::racelab::catch2_internal::register_spec_cases( \
          ::racelab::SpecRef(__VA_ARGS__), false, __FILE__, __LINE__)

#define RACELAB_CATCH2_SPEC_EXPECT_CAUGHT(name, ...)   \
  static const int name##_racelab_catch2_caught =      \
      ::racelab::catch2_internal::register_spec_cases( \
          ::racelab::SpecRef(__VA_ARGS__), true, __FILE__, __LINE__)

#endif  // RACELAB_CATCH2_H_
