// Conformance: a thread is waiting on a condition variable while main
// forks; the child checks a value and exits, the parent reaps it, wakes the
// thread and joins it (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex mu;
std::condition_variable cv;
bool waiting = false;
bool go = false;
int value = 0;

int main() {
  std::thread t([] {
    std::unique_lock lock(mu);
    waiting = true;
    cv.notify_one();
    cv.wait(lock, [] { return go; });
    value += 1;
  });
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [] { return waiting; });
    value = 41;
  }
  const pid_t child = fork();
  if (child == 0) _exit(value == 41 ? 0 : 1);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return 2;
  {
    std::lock_guard lock(mu);
    go = true;
  }
  cv.notify_one();
  t.join();
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && value == 42 ? 0 : 1;
}
