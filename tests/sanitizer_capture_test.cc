// The TSan report hook's de-duplication: a race repeated within a run is one
// report, each run sees its races again, and distinct races stay distinct;
// TSan prints the first three of a run, the hook captures them all.
// The binary runs with TSan's own de-duplication off (as the case children
// and kit binaries do; tests/CMakeLists.txt), so only the hook can drop a
// repeat.
#include "racelab/internal/sanitizer_capture.h"

#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace racelab {
namespace {

// Racy on purpose: two threads bump them with no synchronisation.
alignas(64) int g_first = 0;
alignas(64) int g_second = 0;  // in other shadow cells than g_first

__attribute__((noinline)) void bump(int* counter, int times) {
  for (int i = 0; i < times; ++i) {
    *counter = *counter + 1;
    asm volatile("" ::: "memory");  // one load and one store per round
  }
}

// The same race as bump's, at another place in the code.
__attribute__((noinline)) void bump_elsewhere(int* counter, int times) {
  for (int i = 0; i < times; ++i) {
    *counter = *counter + 2;
    asm volatile("" ::: "memory");
  }
}

// One run: four threads race on `first` (and on `second` from other code,
// when given), then the run's reports are taken. No thread's accesses happen
// before another's, so each thread's first access races with the last one's
// of another thread: TSan finds the same race three times in every run,
// however the threads are scheduled.
std::vector<Finding> race_on(int* first, int* second = nullptr) {
  auto work = [&] {
    bump(first, 20);
    if (second != nullptr) bump_elsewhere(second, 20);
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  return take_tsan_findings();
}

TEST(TsanReportDedup, ARaceRepeatedInARunIsReportedOnceAndAgainInTheNext) {
  if (!built_with_tsan()) GTEST_SKIP() << "a ThreadSanitizer build only";
  take_tsan_findings();  // start a fresh run
  for (int run = 0; run < 3; ++run) {
    const int before = tsan_reports_seen();
    const std::vector<Finding> findings = race_on(&g_first);
    EXPECT_EQ(tsan_reports_seen() - before, 1) << "run " << run;
    ASSERT_EQ(findings.size(), 1u) << "run " << run;
    EXPECT_EQ(findings[0].kind, FindingKind::kDataRace);
  }
}

// Two races of other stacks at other addresses: TSan's own de-duplication
// would report both as well.
TEST(TsanReportDedup, TwoRacesInOneRunAreTwoReports) {
  if (!built_with_tsan()) GTEST_SKIP() << "a ThreadSanitizer build only";
  take_tsan_findings();
  const int before = tsan_reports_seen();
  const std::vector<Finding> findings = race_on(&g_first, &g_second);
  EXPECT_EQ(tsan_reports_seen() - before, 2);
  EXPECT_EQ(findings.size(), 2u);
}

// Five races, each at its own place in the code and on its own variable.
template <int N>
__attribute__((noinline)) void bump_at(int* counter) {
  for (int i = 0; i < 20; ++i) {
    *counter = *counter + N;
    asm volatile("" ::: "memory");
  }
}
struct alignas(64) Padded {
  int value = 0;
};
Padded g_five[5];

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(TsanReportDedup, AllDistinctReportsAreCapturedTheFirstThreePrinted) {
  if (!built_with_tsan()) GTEST_SKIP() << "a ThreadSanitizer build only";
  take_tsan_findings();
  const int before = tsan_reports_seen();
  testing::internal::CaptureStderr();
  auto work = [] {
    bump_at<1>(&g_five[0].value);
    bump_at<2>(&g_five[1].value);
    bump_at<3>(&g_five[2].value);
    bump_at<4>(&g_five[3].value);
    bump_at<5>(&g_five[4].value);
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  const std::vector<Finding> findings = take_tsan_findings();
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(tsan_reports_seen() - before, 5);
  EXPECT_EQ(findings.size(), 5u);
  EXPECT_EQ(occurrences(printed, "WARNING: ThreadSanitizer: data race"), 3)
      << printed;
  EXPECT_NE(printed.find("racelab: 2 more distinct ThreadSanitizer reports in "
                         "this run, not printed"),
            std::string::npos)
      << printed;
}

}  // namespace
}  // namespace racelab
