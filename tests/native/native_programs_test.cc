// The small programs of programs.h under racelab::explore, every strategy:
// each buggy twin is found with its finding, each fixed twin is clean.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "programs.h"
#include "racelab/explore.h"
#include "racelab/internal/sanitizer_capture.h"

namespace racelab {
namespace {

using native_programs::Program;

class NativeProgramsTest
    : public ::testing::TestWithParam<std::tuple<Program, const char*>> {
 protected:
  ExploreOptions options() const {
    ExploreOptions o;
    o.strategy = std::get<1>(GetParam());
    o.budget = 500;
    o.name = std::string("native-") + std::get<0>(GetParam()).name;
    return o;
  }
};

bool has_kind(const ExploreResult& result, FindingKind kind) {
  for (const Finding& f : result.findings) {
    if (f.kind == kind) return true;
  }
  return false;
}

TEST_P(NativeProgramsTest, BuggyTwinIsFound) {
  const Program& program = std::get<0>(GetParam());
  if (!native_programs::runnable(program, false, built_with_tsan())) {
    GTEST_SKIP() << "needs the TSan build";
  }
  const ExploreResult result =
      explore([&] { program.run(/*fixed=*/false); }, options());
  ASSERT_TRUE(result.found()) << result.message;
  EXPECT_TRUE(has_kind(result, program.buggy_finding)) << result.message;
  EXPECT_FALSE(result.schedule_file.empty());
  // The saved schedule reproduces the finding.
  const ExploreResult again =
      replay([&] { program.run(false); }, result.schedule_file, options());
  EXPECT_TRUE(has_kind(again, program.buggy_finding)) << again.message;
}

TEST_P(NativeProgramsTest, FixedTwinIsClean) {
  const Program& program = std::get<0>(GetParam());
  if (!native_programs::runnable(program, true, built_with_tsan())) {
    GTEST_SKIP() << "needs the TSan build";
  }
  const ExploreResult result =
      explore([&] { program.run(/*fixed=*/true); }, options());
  EXPECT_FALSE(result.found()) << result.message;
  EXPECT_GT(result.schedules, 0);
}

std::string name_of(
    const ::testing::TestParamInfo<std::tuple<Program, const char*>>& info) {
  return std::string(std::get<0>(info.param).name) + "_" +
         std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, NativeProgramsTest,
    ::testing::Combine(::testing::ValuesIn(native_programs::programs()),
                       ::testing::Values("pct", "random", "dfs")),
    name_of);

}  // namespace
}  // namespace racelab
