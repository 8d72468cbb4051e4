// Tests of the trace table formatter.
#include "racelab/sched/trace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace racelab::sched {
namespace {

Trace sample_trace() {
  Trace trace;
  trace.thread_count = 2;
  trace.rows = {
      {0, 0, TraceKind::kOperation, "set(k1,v1) begins"},
      {0, 0, TraceKind::kLockAcquired, "acquired 'state.mu'"},
      {0, 0, TraceKind::kSwitch, "preempted at 'unlock'"},
      {1, 1, TraceKind::kOperation, "get(k1) begins"},
      {1, 1, TraceKind::kLockWaited, "blocked on 'state.mu'"},
      {12, 0, TraceKind::kOperation, "-> ok"},
  };
  return trace;
}

TEST(TraceTest, FormatsOneColumnPerThread) {
  // clang-format off
  const std::string expected =
      "step | thread 0                            | thread 1\n"
      "-----+-------------------------------------+------------------------------------\n"
      "   0 | set(k1,v1) begins                   |\n"
      "   0 | acquired 'state.mu'                 |\n"
      "   0 | preempted at 'unlock'               |\n"
      "   1 |                                     | get(k1) begins\n"
      "   1 |                                     | blocked on 'state.mu'\n"
      "  12 | -> ok                               |\n";
  // clang-format on
  EXPECT_EQ(format_trace(sample_trace()), expected);
}

TEST(TraceTest, FitsEightyColumnsForUpToFourThreads) {
  for (int threads = 1; threads <= 4; ++threads) {
    Trace trace;
    trace.thread_count = threads;
    for (int t = 0; t < threads; ++t) {
      trace.rows.push_back(
          {t, t, TraceKind::kOperation,
           "a rather long operation description that has to wrap even "
           "when a single thread gets the whole width " +
               std::to_string(t)});
    }
    std::istringstream lines(format_trace(trace));
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
      EXPECT_LE(line.size(), 80u) << line;
      EXPECT_TRUE(line.empty() || line.back() != ' ') << line;
      ++count;
    }
    EXPECT_GT(count, 2 + threads);  // long cells wrapped onto more lines
  }
}

TEST(TraceTest, WrapsLongCellsAtSpaces) {
  Trace trace;
  trace.thread_count = 4;
  trace.rows = {{3, 2, TraceKind::kOperation,
                 "all(yield) returns {k1=v1, k2=v2, k3=v3}"}};
  // clang-format off
  const std::string expected =
      "step | thread 0         | thread 1         | thread 2         | thread 3\n"
      "-----+------------------+------------------+------------------+-----------------\n"
      "   3 |                  |                  | all(yield)       |\n"
      "     |                  |                  | returns {k1=v1,  |\n"
      "     |                  |                  | k2=v2, k3=v3}    |\n";
  // clang-format on
  EXPECT_EQ(format_trace(trace), expected);
}

TEST(TraceTest, HardBreaksWordsLongerThanTheColumnAndHidesControlBytes) {
  Trace trace;
  trace.thread_count = 4;
  trace.rows = {
      {0, 0, TraceKind::kOperation, "abcdefghijklmnopqrstuvwxyz0123456789\n!"}};
  // clang-format off
  const std::string expected =
      "step | thread 0         | thread 1         | thread 2         | thread 3\n"
      "-----+------------------+------------------+------------------+-----------------\n"
      "   0 | abcdefghijklmnop |                  |                  |\n"
      "     | qrstuvwxyz012345 |                  |                  |\n"
      "     | 6789?!           |                  |                  |\n";
  // clang-format on
  EXPECT_EQ(format_trace(trace), expected);
}

TEST(TraceTest, SameTraceSameText) {
  EXPECT_EQ(format_trace(sample_trace()), format_trace(sample_trace()));
  EXPECT_EQ(format_trace(Trace{}),
            "step | thread 0\n-----+" + std::string(74, '-') + "\n");
}

TEST(TraceTest, KindNames) {
  EXPECT_EQ(to_string(TraceKind::kOperation), "operation");
  EXPECT_EQ(to_string(TraceKind::kLockAcquired), "lock acquired");
  EXPECT_EQ(to_string(TraceKind::kLockReleased), "lock released");
  EXPECT_EQ(to_string(TraceKind::kLockWaited), "lock waited");
  EXPECT_EQ(to_string(TraceKind::kSwitch), "switch");
  EXPECT_EQ(to_string(TraceKind::kException), "exception");
}

}  // namespace
}  // namespace racelab::sched
