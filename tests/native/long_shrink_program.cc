// Racy whole programs whose failing schedule takes long to shrink, for
// `racelab explore` interrupted while it shrinks (interrupted_shrink_test.sh).
//   long_shrink_program many_threads  8 threads, each 20 locked increments
//                                     and one unlocked one: found at once,
//                                     shrunk over many runs
//   long_shrink_program hold MARKER   2 threads, one unlocked increment each;
//                                     a run that finds MARKER creates it and
//                                     races, a run that finds it creates
//                                     MARKER.rerun and waits in the kernel
//                                     until it is killed, so that every rerun
//                                     of a shrink lasts until racelab is
//                                     stopped
//   long_shrink_program tests MARKER --racelab-list-tests | --racelab-test=T
//                                     the same as a test binary of racelab's
//                                     listing convention: tests `clean` (2
//                                     threads, a locked increment each),
//                                     `hold` (hold MARKER) and `later`
//                                     (clean), in that order
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

int counter = 0;  // incremented once per thread without the lock

int many_threads() {
  std::mutex mu;
  long locked = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        std::lock_guard<std::mutex> hold(mu);
        ++locked;
      }
      ++counter;
    });
  }
  for (std::thread& t : threads) t.join();
  return locked == 160 ? 0 : 1;
}

int hold(const char* marker) {
  const int fd = ::open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    // A rerun: says so (MARKER.rerun), then waits where no scheduling point
    // is, until killed.
    const std::string rerun = std::string(marker) + ".rerun";
    const int said =
        ::open(rerun.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (said >= 0) ::close(said);
    int never[2];
    if (::pipe(never) != 0) return 3;
    char byte;
    while (::read(never[0], &byte, 1) != 0) {
    }
    return 3;
  }
  ::close(fd);
  std::thread other([] { ++counter; });
  ++counter;
  other.join();
  return 0;
}

int locked_pair() {
  std::mutex mu;
  int value = 0;
  std::thread other([&] {
    std::lock_guard<std::mutex> hold(mu);
    ++value;
  });
  {
    std::lock_guard<std::mutex> hold(mu);
    ++value;
  }
  other.join();
  return value == 2 ? 0 : 1;
}

int test_binary(const char* marker, const char* option) {
  if (std::strcmp(option, "--racelab-list-tests") == 0) {
    std::printf("clean\nhold\nlater\n");
    return 0;
  }
  const std::string test = option;
  if (test == "--racelab-test=clean" || test == "--racelab-test=later") {
    return locked_pair();
  }
  if (test == "--racelab-test=hold") return hold(marker);
  std::fprintf(stderr, "no test %s\n", option);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "many_threads") == 0) {
    return many_threads();
  }
  if (argc == 3 && std::strcmp(argv[1], "hold") == 0) return hold(argv[2]);
  if (argc == 4 && std::strcmp(argv[1], "tests") == 0) {
    return test_binary(argv[2], argv[3]);
  }
  std::fprintf(stderr,
               "usage: %s many_threads | hold MARKER | tests MARKER "
               "(--racelab-list-tests | --racelab-test=NAME)\n",
               argv[0]);
  return 2;
}
