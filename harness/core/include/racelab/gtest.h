// GoogleTest integration of the store-implementer kit: one line per store
// yields every scenario x mode x oracle of it as a separate test.
//
//   #include "racelab/gtest.h"
//   RACELAB_STORE_TESTS(MutexRingTraits);     // must be clean everywhere
//   RACELAB_EXPECT_CAUGHT(SplitCheckRingTraits);  // the bug must be caught
//
// RACELAB_STORE_TESTS(T) makes tests named
//   Racelab/T.Clean/<scenario>__<mode>__<oracle>
// (oracle: tsan, invariants, linearizability; tsan tests skip in a build
// without ThreadSanitizer). A failing test prints the findings, the trace of
// the shrunk failing schedule and the path of the saved schedule file.
//
// (only the oracles T::options().oracles selects, when T has options()).
// RACELAB_STORE_TESTS_NAMED(Name, Traits<int>) takes the suite's name
// separately, for a type that is not one identifier (a template).
//
// RACELAB_EXPECT_CAUGHT(T) makes one test per scenario in controlled mode,
// judged by the selected oracles together, that passes when the check finds
// something (a known-buggy store, kept as a regression test for the harness).
// Stress mode is left out: whether real threads hit a window is a matter of
// luck.
//
// T is a racelab::StoreTraits (kit.h). Link GTest::gtest_main (or your own
// main) and racelab::core; racelab_add_store_tests() in CMake does both.
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

#include <ostream>
#include <string>
#include <vector>

#include "racelab/explore.h"
#include "racelab/kit.h"
#include "racelab/kit_binary.h"
#include "racelab/sanitizer_capture.h"
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

template <StoreTraits T>
void expect_clean(const KitCase& c) {
  if (c.oracle == Oracle::kTsan && !built_with_tsan()) {
    GTEST_SKIP() << "the tsan oracle needs a ThreadSanitizer build";
  }
  CheckResult result = run_kit_case<T>(c);
  EXPECT_TRUE(result.clean()) << result.message;
  // An undecided history is no evidence of correctness.
  EXPECT_EQ(result.inconclusive_linearizability, 0) << result.message;
  if (result.clean()) std::cout << "  " << result.message;
}

template <StoreTraits T>
void expect_caught(const KitCase& c) {
  CheckResult result = run_kit_case<T>(c);
  EXPECT_FALSE(result.clean())
      << "racelab did not catch the bug of " << traits_store_name<T>() << ": "
      << result.message;
  if (!result.clean()) {
    std::cout << "caught, as expected:\n" << result.message;
  }
}

// A declared spec's cases; a spec that cannot run (racelab::InputError) is
// reported once, in one line, and the binary exits with status 2.
std::vector<KitCase> spec_cases_or_exit(const SpecRef& spec, bool per_oracle,
                                        std::vector<Mode> only_modes = {});

inline void expect_spec_clean(const SpecRef& spec, const KitCase& c) {
  if (c.oracle == Oracle::kTsan && !built_with_tsan()) {
    GTEST_SKIP() << "the tsan oracle needs a ThreadSanitizer build";
  }
  CheckResult result = run_spec_case(spec, c);
  EXPECT_TRUE(result.clean()) << result.message;
  // An undecided history is no evidence of correctness.
  EXPECT_EQ(result.inconclusive_linearizability, 0) << result.message;
  if (result.clean()) std::cout << "  " << result.message;
}

inline void expect_spec_caught(const SpecRef& spec, const KitCase& c) {
  CheckResult result = run_spec_case(spec, c);
  EXPECT_FALSE(result.clean()) << "racelab did not catch the bug of "
                               << spec->name << ": " << result.message;
  if (!result.clean()) std::cout << "caught, as expected:\n" << result.message;
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

// A known-buggy store: every scenario in controlled mode, judged by the
// selected oracles together, must find something. Tests are named
// Racelab/<name>.Caught/<scenario>__controlled__all.
#define RACELAB_SPEC_EXPECT_CAUGHT(name, ...)                               \
  static const ::racelab::SpecRef& name##_RacelabSpec() {                   \
    static const ::racelab::SpecRef spec = ::racelab::SpecRef(__VA_ARGS__); \
    return spec;                                                            \
  }                                                                         \
  class name : public ::testing::TestWithParam<::racelab::KitCase> {};      \
  TEST_P(name, Caught) {                                                    \
    ::racelab::gtest_internal::expect_spec_caught(name##_RacelabSpec(),     \
                                                  GetParam());              \
  }                                                                         \
  INSTANTIATE_TEST_SUITE_P(                                                 \
      Racelab, name,                                                        \
      ::testing::ValuesIn(::racelab::gtest_internal::spec_cases_or_exit(    \
          name##_RacelabSpec(), /*per_oracle=*/false,                       \
          {::racelab::Mode::kControlled})),                                 \
      ::racelab::gtest_internal::ParamName{})

// Every scenario x mode x oracle of store traits `...` (a type, template
// arguments and all: RACELAB_STORE_TESTS_NAMED(IntRing, RingTraits<int>)),
// each a test that must be clean, in the suite Racelab/Name_RacelabClean.
#define RACELAB_STORE_TESTS_NAMED(Name, ...)                          \
  class Name##_RacelabClean                                           \
      : public ::testing::TestWithParam<::racelab::KitCase> {};       \
  TEST_P(Name##_RacelabClean, Clean) {                                \
    ::racelab::gtest_internal::expect_clean<__VA_ARGS__>(GetParam()); \
  }                                                                   \
  INSTANTIATE_TEST_SUITE_P(                                           \
      Racelab, Name##_RacelabClean,                                   \
      ::testing::ValuesIn(::racelab::kit_cases<__VA_ARGS__>()),       \
      ::racelab::gtest_internal::ParamName{})

// Every scenario of store traits `...` in controlled mode, each a test that
// passes when the bug is caught, in the suite Racelab/Name_RacelabCaught.
#define RACELAB_EXPECT_CAUGHT_NAMED(Name, ...)                         \
  class Name##_RacelabCaught                                           \
      : public ::testing::TestWithParam<::racelab::KitCase> {};        \
  TEST_P(Name##_RacelabCaught, Caught) {                               \
    ::racelab::gtest_internal::expect_caught<__VA_ARGS__>(GetParam()); \
  }                                                                    \
  INSTANTIATE_TEST_SUITE_P(                                            \
      Racelab, Name##_RacelabCaught,                                   \
      ::testing::ValuesIn(::racelab::kit_cases<__VA_ARGS__>(           \
          /*per_oracle=*/false, {::racelab::Mode::kControlled})),      \
      ::racelab::gtest_internal::ParamName{})

// The same for traits named by one identifier (the suite takes its name).
#define RACELAB_STORE_TESTS(T) RACELAB_STORE_TESTS_NAMED(T, T)
#define RACELAB_EXPECT_CAUGHT(T) RACELAB_EXPECT_CAUGHT_NAMED(T, T)

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
