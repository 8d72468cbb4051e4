// Tests of the trace table formatter.
#include "racelab/internal/sched/trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace racelab::sched {
namespace {

Trace sample_trace() {
  Trace trace;
  trace.thread_count = 2;
  trace.rows = {
      {0, 0, TraceKind::kOperation, "set(k1,v1) begins"},
      {0, 0, TraceKind::kLockAcquired, "acquired 'state.mu'", "state.mu"},
      {0, 0, TraceKind::kSwitch, "preempted at 'unlock'"},
      {1, 1, TraceKind::kOperation, "get(k1) begins"},
      {1, 1, TraceKind::kLockWaited, "blocked on 'state.mu'", "state.mu"},
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
      "     | acquired 'state.mu'                 |\n"
      "     | preempted at 'unlock'               |\n"
      "   1 |                                     | get(k1) begins\n"
      "     |                                     | blocked on 'state.mu'\n"
      "  12 | -> ok                               |\n";
  // clang-format on
  EXPECT_EQ(format_trace(sample_trace()), expected);
}

TEST(TraceTest, MoreThanSixteenThreadsGetOneLinePerRow) {
  Trace trace = sample_trace();
  trace.thread_count = 300;
  trace.rows.push_back({13, 299, TraceKind::kSwitch, "finished"});
  // clang-format off
  const std::string expected =
      "step | thread | event\n"
      "-----+--------+-----------------------------------------------------------------\n"
      "   0 |      0 | set(k1,v1) begins\n"
      "     |      0 | acquired 'state.mu'\n"
      "     |      0 | preempted at 'unlock'\n"
      "   1 |      1 | get(k1) begins\n"
      "     |      1 | blocked on 'state.mu'\n"
      "  12 |      0 | -> ok\n"
      "  13 |    299 | finished\n";
  // clang-format on
  EXPECT_EQ(format_trace(trace), expected);
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

TEST(TraceTest, NeverCutsAWordThatFitsALine) {
  // The lock name does not fit after the verb: it moves to the next line
  // whole (it used to read "acquired 'checkpoint.m" / "u'").
  EXPECT_EQ(wrap_text("acquired 'checkpoint.mu'", 22),
            (std::vector<std::string>{"acquired", "'checkpoint.mu'"}));
  EXPECT_EQ(wrap_text("a bb ccc dddd", 4),
            (std::vector<std::string>{"a bb", "ccc", "dddd"}));
  EXPECT_EQ(wrap_text("fits exactly", 12),
            (std::vector<std::string>{"fits exactly"}));
  EXPECT_EQ(wrap_text("", 5), (std::vector<std::string>{""}));
}

TEST(TraceTest, LongWordsBreakAfterPunctuationThenAnywhere) {
  EXPECT_EQ(wrap_text("commit(s0,p0.0)", 10),
            (std::vector<std::string>{"commit(s0,", "p0.0)"}));
  EXPECT_EQ(wrap_text("{k1=v1,k2=v2}", 8),
            (std::vector<std::string>{"{k1=v1,", "k2=v2}"}));
  EXPECT_EQ(wrap_text("abcdefghij", 4),
            (std::vector<std::string>{"abcd", "efgh", "ij"}));
  // Never inside a UTF-8 sequence: "é" is two bytes.
  EXPECT_EQ(wrap_text("ab\xc3\xa9"
                      "cd",
                      3),
            (std::vector<std::string>{"ab",
                                      "\xc3\xa9"
                                      "c",
                                      "d"}));
}

TEST(TraceTest, EveryLineFitsAndNoWordIsCutWhenAllFit) {
  const std::string text =
      "set(k1,v1) begins, then acquired 'state.mu' (shared) and released it";
  for (std::size_t width = 12; width <= 40; ++width) {
    std::string joined;
    for (const std::string& line : wrap_text(text, width)) {
      EXPECT_LE(line.size(), width) << line;
      EXPECT_FALSE(line.empty());
      joined += (joined.empty() ? "" : " ") + line;
    }
    EXPECT_EQ(joined, text) << width;
  }
}

FoldInput op(int thread) { return {thread, FoldRole::kOperation, {}}; }
FoldInput other(int thread) { return {thread, FoldRole::kOther, {}}; }
FoldInput acq(int thread, std::string lock) {
  return {thread, FoldRole::kAcquire, std::move(lock)};
}
FoldInput rel(int thread, std::string lock) {
  return {thread, FoldRole::kRelease, std::move(lock)};
}

TEST(FoldLockPairs, APairFoldsIntoItsOperation) {
  const std::vector<FoldedRow> rows =
      fold_lock_pairs({op(0), acq(0, "'mu'"), rel(0, "'mu'"), acq(0, "'mu'"),
                       rel(0, "'mu'"), other(0)});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].row, 0u);
  EXPECT_FALSE(rows[0].lock_pair);
  EXPECT_EQ(rows[0].text("commit(s0)"), "commit(s0) [locked 'mu' x2]");
  EXPECT_EQ(rows[1].row, 5u);
  EXPECT_EQ(rows[1].text("-> 0"), "-> 0");
}

TEST(FoldLockPairs, APairWithoutItsOperationIsOneRow) {
  // After a result, and after another thread ran: no operation row to join.
  const std::vector<FoldedRow> rows =
      fold_lock_pairs({op(0), other(1), acq(0, "'mu'"), rel(0, "'mu'"),
                       acq(0, "'mu'"), rel(0, "'mu'")});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].row, 2u);
  EXPECT_TRUE(rows[2].lock_pair);
  EXPECT_EQ(rows[2].text("acquired 'mu'"), "locked 'mu' x2");
}

TEST(FoldLockPairs, NestedPairsFoldInTheOrderTaken) {
  const std::vector<FoldedRow> rows = fold_lock_pairs(
      {op(0), acq(0, "'a'"), acq(0, "'b'"), rel(0, "'b'"), rel(0, "'a'")});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].text("move()"), "move() [locked 'a', 'b']");
}

TEST(FoldLockPairs, APairWithASwitchInBetweenStays) {
  // Thread 0 holds 'mu' while thread 1 runs: that is the interleaving.
  const std::vector<FoldInput> in = {op(0), acq(0, "'mu'"), other(0), op(1),
                                     rel(0, "'mu'")};
  const std::vector<FoldedRow> rows = fold_lock_pairs(in);
  ASSERT_EQ(rows.size(), in.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].row, i);
    EXPECT_TRUE(rows[i].locks.empty());
  }
  // Another thread's release, or another lock's, pairs with nothing.
  EXPECT_EQ(fold_lock_pairs({op(0), acq(0, "'mu'"), rel(1, "'mu'")}).size(),
            3u);
  EXPECT_EQ(fold_lock_pairs({op(0), acq(0, "'a'"), rel(0, "'b'")}).size(), 3u);
}

TEST(TraceTest, FoldsLockPairsIntoTheOperationRow) {
  Trace trace;
  trace.thread_count = 2;
  trace.rows = {
      {1, 0, TraceKind::kOperation, "commit(s0,p0.0)"},
      {2, 0, TraceKind::kLockAcquired, "acquired 'checkpoint.mu'",
       "checkpoint.mu"},
      {2, 0, TraceKind::kLockReleased, "released 'checkpoint.mu'",
       "checkpoint.mu"},
      {5, 0, TraceKind::kOperation, "-> 0"},
      {5, 0, TraceKind::kSwitch, "preempted at 'commit'"},
      {7, 1, TraceKind::kLockAcquired, "acquired 'checkpoint.mu' (shared)",
       "checkpoint.mu", true},
      {7, 1, TraceKind::kLockReleased, "released 'checkpoint.mu' (shared)",
       "checkpoint.mu", true},
  };
  EXPECT_EQ(fold_inputs(trace)[1].lock, "'checkpoint.mu'");
  // clang-format off
  const std::string expected =
      "step | thread 0                            | thread 1\n"
      "-----+-------------------------------------+------------------------------------\n"
      "   1 | commit(s0,p0.0) [locked             |\n"
      "     | 'checkpoint.mu']                    |\n"
      "   5 | -> 0                                |\n"
      "     | preempted at 'commit'               |\n"
      "   7 |                                     | locked 'checkpoint.mu' (shared)\n";
  // clang-format on
  EXPECT_EQ(format_trace(trace), expected);
}

TEST(TraceTest, EachStepNumberIsShownOnce) {
  const std::string text = format_trace(sample_trace());
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> steps;
  while (std::getline(lines, line)) {
    const std::string step = line.substr(0, line.find('|'));
    if (step.find_first_not_of(' ') == std::string::npos) continue;
    if (step.find_first_not_of("0123456789 ") != std::string::npos) continue;
    EXPECT_EQ(std::count(steps.begin(), steps.end(), step), 0) << text;
    steps.push_back(step);
  }
  EXPECT_EQ(steps.size(), 3u) << text;
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

namespace racelab::sched {
namespace {

TEST(TraceCodecTest, ATraceTravelsAsTextAndBack) {
  Trace trace = sample_trace();
  trace.rows.push_back({3, 1, TraceKind::kException, "threw: 100% bad\nline"});
  trace.rows.push_back({4, 1, TraceKind::kOperation, ""});
  const std::string text = encode_trace(trace);
  const std::optional<Trace> back = decode_trace(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, trace);
  // A trace sent in parts is the same trace.
  const std::vector<TraceRow> head(trace.rows.begin(), trace.rows.begin() + 3);
  const std::string parts = "threads 2\n" + encode_trace_rows(head, 0) +
                            encode_trace_rows(trace.rows, 3);
  EXPECT_EQ(decode_trace(parts), trace);
}

TEST(TraceCodecTest, TextThatIsNotATraceIsRefused) {
  for (const char* text : {
           "",                                  // no threads line
           "row 0 0 operation % 0 x\n",         // rows before threads
           "threads 2\nrow 0 0 operation % 0",  // cut off
           "threads 2\nrow 0 0 nonsense % 0 x\n",
           "threads 2\nrow -1 0 operation % 0 x\n",
           "threads 2\nrow 0 0 operation % 2 x\n",
           "threads 2\nrow 0 0 operation % 0 %G1\n",
           "threads 2\nrow 0 0 operation % 0 %4\n",
           "threads 2\nrow 0 0 operation % 0\n",
           "threads 9999999\n",
           "threads 2\nthreads 2\n",
       }) {
    EXPECT_FALSE(decode_trace(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace racelab::sched
