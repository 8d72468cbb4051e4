// Build glue, not upstream code: moodycamel::ConcurrentQueue's unit tests
// (tests/unittests/unittests.cpp, unchanged) with a main that follows
// racelab's listing convention, so that `racelab explore --tests` can run
// them one at a time: --racelab-list-tests prints the names the tests
// register; --racelab-test=<name> runs the upstream main as
// `--run <name> --iterations 1 --disable-prompt`. Any other arguments go to
// the upstream main as they are.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#define main concurrentqueue_unittests_main
#include "tests/unittests/unittests.cpp"
#undef main

int main(int argc, char** argv) {
  constexpr std::string_view kOne = "--racelab-test=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--racelab-list-tests") {
      ConcurrentQueueTests tests;
      std::vector<std::string> names;
      tests.getAllTestNames(names);
      for (const std::string& name : names) std::printf("%s\n", name.c_str());
      return 0;
    }
    if (arg.substr(0, kOne.size()) == kOne) {
      std::string name(arg.substr(kOne.size()));
      char run[] = "--run";
      char iterations[] = "--iterations";
      char one[] = "1";
      char no_prompt[] = "--disable-prompt";
      char* upstream_argv[] = {argv[0], run,       name.data(), iterations,
                               one,     no_prompt, nullptr};
      return concurrentqueue_unittests_main(6, upstream_argv);
    }
  }
  return concurrentqueue_unittests_main(argc, argv);
}
