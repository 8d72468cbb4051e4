// Conformance: main waits for a child process that exits only once a thread
// of the parent has written it a byte through a pipe (clean). Under explore,
// waitpid gives way while the child runs on, so the writer runs; blocking in
// the kernel while holding the turn would hang the run.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  const pid_t child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    char byte = 0;
    _exit(read(fds[0], &byte, 1) == 1 && byte == 'x' ? 0 : 1);
  }
  std::thread writer([&] {
    if (write(fds[1], "x", 1) != 1) _exit(3);
  });
  int status = -1;
  if (waitpid(child, &status, 0) != child) return 4;
  writer.join();
  close(fds[0]);
  close(fds[1]);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
