// The runner's per-run logs (run_logs.h): cut at the runs' markers, and a log
// over its cap ends at a whole line, never inside a frame's name.
#include "run_logs.h"

#include <string>

#include "gtest/gtest.h"

namespace racelab {
namespace {

TEST(RunLogs, EachRunGetsTheTextAfterItsMarker) {
  RunLogs logs(0, 1024);
  logs.append("== racelab run 0 ==\nfirst\n== racelab r");
  logs.append("un 1 ==\nsecond\n");
  EXPECT_EQ(logs.take(0), "first\n");
  EXPECT_EQ(logs.take(1), "second\n");
}

TEST(RunLogs, ALogOverItsCapEndsAtAWholeLineAndSaysItWasCut) {
  RunLogs logs(0, 64);
  const std::string frame =
      "    #3 std::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> >::_M_assign\n";
  logs.append("WARNING: ThreadSanitizer: data race\n");
  for (int i = 0; i < 4; ++i) logs.append(frame);
  const std::string log = logs.take(0);
  EXPECT_EQ(log.find("basic_string"), std::string::npos) << log;
  EXPECT_EQ(log.rfind("WARNING: ThreadSanitizer: data race\n", 0), 0u) << log;
  EXPECT_NE(log.find("the rest of this run's log is cut"), std::string::npos)
      << log;
  EXPECT_EQ(log.back(), '\n');
}

TEST(RunLogs, AfterTheCutNothingMoreIsKeptForThatRun) {
  RunLogs logs(0, 16);
  logs.append("0123456789\nabcdefghij\n");
  logs.append("more\n");
  logs.append("== racelab run 1 ==\nnext\n");
  const std::string first = logs.take(0);
  EXPECT_EQ(first.rfind("0123456789\n[racelab:", 0), 0u) << first;
  EXPECT_EQ(first.find("more"), std::string::npos) << first;
  EXPECT_EQ(logs.take(1), "next\n");
}

}  // namespace
}  // namespace racelab
