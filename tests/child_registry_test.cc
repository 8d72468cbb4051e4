// ChildRegistry: stop_all() signals every live child it holds and no other;
// a child added after the stop is stopped at once.
#include "racelab/child_registry.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace racelab {
namespace {

pid_t spawn_sleeper() {
  pid_t pid = 0;
  char sleep_path[] = "/bin/sleep";
  char seconds[] = "60";
  char* argv[] = {sleep_path, seconds, nullptr};
  EXPECT_EQ(posix_spawn(&pid, sleep_path, nullptr, nullptr, argv, environ), 0);
  return pid;
}

// How the child ended: the signal that killed it, or 0 for anything else.
int killed_by(pid_t pid) {
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

TEST(ChildRegistry, StopSignalsEveryLiveChildAndOnlyThose) {
  ChildRegistry registry;
  const pid_t a = spawn_sleeper(), b = spawn_sleeper(), c = spawn_sleeper();
  EXPECT_TRUE(registry.add(a));
  EXPECT_TRUE(registry.add(b));
  EXPECT_TRUE(registry.add(c));
  registry.remove(c);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_FALSE(registry.stopped());
  EXPECT_EQ(registry.stop_all(SIGKILL), 2);
  EXPECT_TRUE(registry.stopped());
  EXPECT_EQ(killed_by(a), SIGKILL);
  EXPECT_EQ(killed_by(b), SIGKILL);
  // c was removed: still alive until the test ends it.
  EXPECT_EQ(::waitpid(c, nullptr, WNOHANG), 0);
  ::kill(c, SIGTERM);
  EXPECT_EQ(killed_by(c), SIGTERM);
}

TEST(ChildRegistry, AChildAddedAfterTheStopIsStoppedAtOnce) {
  ChildRegistry registry;
  EXPECT_EQ(registry.stop_all(SIGTERM), 0);
  const pid_t late = spawn_sleeper();
  EXPECT_FALSE(registry.add(late));
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(killed_by(late), SIGTERM);
}

TEST(ChildRegistry, TheProcessRegistryIsOne) {
  EXPECT_EQ(&child_registry(), &child_registry());
}

}  // namespace
}  // namespace racelab
