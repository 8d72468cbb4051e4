// A whole program, linked with racelab::runtime, that does what a hostile or
// careless program under `racelab explore` may do: leave processes behind,
// block, spin, flood its output, print what looks like a sanitizer report.
// explore_safety_test.sh runs each and checks that racelab stays in charge.
//   process_tree_program <mode> [token...]
// The tokens only mark the processes (the test finds them by their command
// line); `args` prints every argument in hex and aborts, so that a saved
// schedule can show that replay passes the very same bytes.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void wait_forever() {
  for (;;) pause();
}

int leave_a_child() {
  if (fork() == 0) wait_forever();
  return 0;
}

int leave_a_daemon() {
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    if (fork() == 0) wait_forever();
    _exit(0);
  }
  waitpid(child, nullptr, 0);
  return 0;
}

int spin() {
  volatile unsigned long counter = 0;
  for (;;) counter = counter + 1;
}

int block_in_read() {
  int fds[2];
  if (pipe(fds) != 0) return 1;
  char byte;
  return static_cast<int>(read(fds[0], &byte, 1));  // nobody writes
}

int print_a_fake_report() {
  std::fprintf(stderr,
               "WARNING: ThreadSanitizer: data race (pid=1)\n"
               "  (printed by the program itself, not by the sanitizer)\n");
  return 0;
}

// 1 GiB on `stream`.
int flood(FILE* stream) {
  std::vector<char> chunk(1 << 20, 'x');
  for (int i = 0; i < 1024; ++i) {
    if (fwrite(chunk.data(), 1, chunk.size(), stream) != chunk.size()) return 1;
  }
  return 0;
}

int print_args_and_abort(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    std::string hex;
    for (const char* c = argv[i]; *c != '\0'; ++c) {
      char pair[3];
      std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned char>(*c));
      hex += pair;
    }
    std::fprintf(stderr, "arg %d [%s]\n", i, hex.c_str());
  }
  std::abort();
}

// Two threads that look at an atomic many times and change nothing: more
// scheduling decisions without progress than a small --max-steps allows.
int many_steps() {
  std::atomic<int> seen{0};
  int sum = 0;
  std::thread other([&] {
    int mine = 0;
    for (int i = 0; i < 200; ++i) mine += seen.load();
    sum = mine;
  });
  int mine = 0;
  for (int i = 0; i < 200; ++i) mine += seen.load();
  other.join();
  return mine + sum == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "child") return leave_a_child();
  if (mode == "daemon") return leave_a_daemon();
  if (mode == "child-read") return leave_a_child() + block_in_read();
  if (mode == "daemon-read") return leave_a_daemon() + block_in_read();
  if (mode == "spin") return spin();
  if (mode == "read") return block_in_read();
  if (mode == "fake-report") return print_a_fake_report();
  if (mode == "flood") return flood(stdout);
  if (mode == "flood-stderr") return flood(stderr);
  if (mode == "args") return print_args_and_abort(argc, argv);
  if (mode == "many-steps") return many_steps();
  std::fprintf(stderr,
               "usage: %s child|daemon|child-read|daemon-read|spin|read|"
               "fake-report|flood|flood-stderr|args|many-steps [token...]\n",
               argv[0]);
  return 2;
}
