// Conformance: main starts a thread and joins it, then forks; the child
// starts a thread of its own, joins it and exits, the parent reaps it
// (clean). ThreadSanitizer lets a child start threads only when the parent
// was single-threaded at the fork.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

int value = 0;

int main() {
  std::thread first([] { value = 1; });
  first.join();
  const pid_t child = fork();
  if (child == 0) {
    std::thread second([] { value += 1; });
    second.join();
    _exit(value == 2 ? 0 : 1);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return 2;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && value == 1 ? 0 : 1;
}
