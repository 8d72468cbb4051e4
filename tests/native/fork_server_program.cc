// A whole program for fork_server_test.sh: what it does before main (its
// static constructor, chosen by the environment variable
// FORK_SERVER_BEFORE) decides whether `racelab explore` can copy it there.
//   print:  writes a line to stdout and one to stderr
//   thread: starts a thread that runs until the process ends
//   open:   opens /dev/null and keeps it open
//   child:  starts a child process, which main waits for (status 7)
//   ignore_chld: ignores SIGCHLD (the kernel reaps the process's children)
// main ("crash" or "clean"): two threads add to a counter under a lock;
// "crash" aborts once both are done, so that the run's finding shows the
// program's output, the constructor's lines included.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

const int kBefore = [] {
  const char* before = std::getenv("FORK_SERVER_BEFORE");
  if (before == nullptr) return 0;
  if (std::strcmp(before, "print") == 0) {
    std::printf("a constructor's stdout line\n");
    std::fflush(stdout);
    std::fprintf(stderr, "a constructor's stderr line\n");
  } else if (std::strcmp(before, "thread") == 0) {
    std::thread([] {
      for (;;) pause();
    }).detach();
  } else if (std::strcmp(before, "open") == 0) {
    return open("/dev/null", O_RDONLY);
  } else if (std::strcmp(before, "child") == 0) {
    const pid_t child = fork();
    if (child == 0) _exit(7);
    return static_cast<int>(child);
  } else if (std::strcmp(before, "ignore_chld") == 0) {
    signal(SIGCHLD, SIG_IGN);
  }
  return 0;
}();

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "crash") != 0 &&
                    std::strcmp(argv[1], "clean") != 0)) {
    std::fprintf(stderr, "usage: %s crash|clean\n", argv[0]);
    return 2;
  }
  const char* before = std::getenv("FORK_SERVER_BEFORE");
  if (before != nullptr && std::strcmp(before, "child") == 0) {
    int status = 0;
    if (waitpid(kBefore, &status, 0) != kBefore || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 7) {
      std::fprintf(stderr, "the constructor's child is not this process's\n");
      return 1;
    }
  }
  std::mutex lock;
  int counter = kBefore >= 0 ? 0 : 1;
  auto add = [&] {
    std::lock_guard<std::mutex> hold(lock);
    ++counter;
  };
  std::thread a(add), b(add);
  a.join();
  b.join();
  std::printf("main's line: counter %d\n", counter);
  std::fflush(stdout);
  if (std::strcmp(argv[1], "crash") == 0) std::abort();
  return 0;
}
