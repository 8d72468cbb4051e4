// What a failure message names: the first frame in this project's own code,
// as file:line relative to the project's folder (racelab_add_store_tests
// tells the kit where that is), with no -g given by the project (the
// racelab::sanitizer flags carry it).
#include <string>
#include <thread>

#include "racelab/gtest.h"

namespace {

int g_hits = 0;

__attribute__((noinline)) void bump() { ++g_hits; }

}  // namespace

TEST(FrameLocation, TheMessageNamesTheProjectsOwnFrame) {
  if (!racelab::built_with_tsan()) GTEST_SKIP() << "needs ThreadSanitizer";
  racelab::ExploreOptions options;
  options.budget = 20;
  options.name = "frame_location";
  const racelab::ExploreResult r = racelab::explore(
      [] {
        g_hits = 0;
        std::thread a(bump);
        std::thread b(bump);
        a.join();
        b.join();
      },
      options);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_NE(r.message.find("in bump at tests/frame_location_test.cc:14"),
            std::string::npos)
      << r.message;
  std::cout << r.message;
}
