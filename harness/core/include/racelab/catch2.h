// Catch2 (v2) integration of the store-implementer kit: one line per store
// registers one test case per scenario x mode, judged by all oracles.
//
//   #include <catch2/catch.hpp>
//   #include "racelab/catch2.h"
//   RACELAB_CATCH2_STORE_TESTS(MutexRingTraits);
//   RACELAB_CATCH2_EXPECT_CAUGHT(SplitCheckRingTraits);
//   RACELAB_CATCH2_SPEC_TESTS(MutexRing, ring_spec());      // spec.h
//   RACELAB_CATCH2_SPEC_EXPECT_CAUGHT(SplitRing, split_ring_spec());
//
// Test cases are named "racelab: <store> x <scenario> (<mode>)" and tagged
// [racelab][<mode>] (and [caught] for the expect-caught variant), so
// `tests "[controlled]"` runs controlled mode only. A failing case prints
// the findings, the trace of the shrunk failing schedule and the path of the
// saved schedule file. As in gtest.h, the expect-caught variant runs
// controlled mode only, and each finished case is told to the kit's
// listener (the reports of $RACELAB_REPORT_DIR). T is a racelab::StoreTraits
// (kit.h).
#ifndef RACELAB_CATCH2_H_
#define RACELAB_CATCH2_H_

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "racelab/kit.h"
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

template <StoreTraits T>
class CaseInvoker final : public Catch::ITestInvoker {
 public:
  CaseInvoker(KitCase c, bool expect_bug, const char* file)
      : case_(std::move(c)), expect_bug_(expect_bug), file_(file) {}
  void invoke() const override {
    CheckResult result = run_kit_case<T>(case_);
    INFO(result.message);
    if (expect_bug_) {
      CHECK_FALSE(result.clean());
    } else {
      CHECK(result.clean());
    }
    tell_listener(traits_store_name<T>(), T::Family::kName,
                  traits_options<T>().store_name, file_, case_, expect_bug_,
                  result);
  }

 private:
  KitCase case_;
  bool expect_bug_;
  const char* file_;
};

// One case of a declared spec.
class SpecCaseInvoker final : public Catch::ITestInvoker {
 public:
  SpecCaseInvoker(SpecRef spec, KitCase c, bool expect_bug, const char* file)
      : spec_(std::move(spec)),
        case_(std::move(c)),
        expect_bug_(expect_bug),
        file_(file) {}
  void invoke() const override {
    CheckResult result = run_spec_case(spec_, case_);
    INFO(result.message);
    if (expect_bug_) {
      CHECK_FALSE(result.clean());
    } else {
      CHECK(result.clean());
    }
    tell_listener(spec_->name, spec_->name,
                  spec_->options.store_name.empty() ? spec_->name
                                                    : spec_->options.store_name,
                  file_, case_, expect_bug_, result);
  }

 private:
  SpecRef spec_;
  KitCase case_;
  bool expect_bug_;
  const char* file_;
};

inline int register_spec_cases(const SpecRef& spec, bool expect_bug,
                               const char* file, std::size_t line) {
  const std::vector<KitCase> cases =
      expect_bug ? spec_cases(spec, /*per_oracle=*/false, {Mode::kControlled})
                 : spec_cases(spec, /*per_oracle=*/false);
  for (const KitCase& c : cases) {
    const std::string name = "racelab: " + spec->name + " x " +
                             c.scenario_name + " (" + to_string(c.mode) + ")";
    const std::string tags = std::string("[racelab][") + to_string(c.mode) +
                             "]" + (expect_bug ? "[caught]" : "");
    Catch::AutoReg(
        new SpecCaseInvoker(spec, c, expect_bug, file),
        Catch::SourceLineInfo(file, line), Catch::StringRef(),
        Catch::NameAndTags(Catch::StringRef(name), Catch::StringRef(tags)));
  }
  return static_cast<int>(cases.size());
}

// Registers the cases at static initialization; returns how many.
template <StoreTraits T>
int register_cases(bool expect_bug, const char* file, std::size_t line) {
  const std::vector<KitCase> cases =
      expect_bug ? kit_cases<T>(/*per_oracle=*/false, {Mode::kControlled})
                 : kit_cases<T>(/*per_oracle=*/false);
  for (const KitCase& c : cases) {
    const std::string name = "racelab: " + traits_store_name<T>() + " x " +
                             c.scenario_name + " (" + to_string(c.mode) + ")";
    const std::string tags = std::string("[racelab][") + to_string(c.mode) +
                             "]" + (expect_bug ? "[caught]" : "");
    // Catch copies the name and tags; the invoker lives for the process.
    Catch::AutoReg(
        new CaseInvoker<T>(c, expect_bug, file),
        Catch::SourceLineInfo(file, line), Catch::StringRef(),
        Catch::NameAndTags(Catch::StringRef(name), Catch::StringRef(tags)));
  }
  return static_cast<int>(cases.size());
}

}  // namespace racelab::catch2_internal

#define RACELAB_CATCH2_STORE_TESTS(T)         \
  static const int T##_racelab_catch2_clean = \
      ::racelab::catch2_internal::register_cases<T>(false, __FILE__, __LINE__)

#define RACELAB_CATCH2_EXPECT_CAUGHT(T)        \
  static const int T##_racelab_catch2_caught = \
      ::racelab::catch2_internal::register_cases<T>(true, __FILE__, __LINE__)

// A declared spec (spec.h): one test case per scenario x mode, judged by the
// spec's oracles; the first must be clean, the second caught.
#define RACELAB_CATCH2_SPEC_TESTS(name, ...)                                \
  static const int name##_racelab_catch2_clean =                            \
      ::racelab::catch2_internal::register_spec_cases(                      \
          ::racelab::SpecRef(__VA_ARGS__), false, __FILE__, __LINE__)

#define RACELAB_CATCH2_SPEC_EXPECT_CAUGHT(name, ...)                        \
  static const int name##_racelab_catch2_caught =                           \
      ::racelab::catch2_internal::register_spec_cases(                      \
          ::racelab::SpecRef(__VA_ARGS__), true, __FILE__, __LINE__)

#endif  // RACELAB_CATCH2_H_
