// Conformance: main holds an exclusive flock of a file; a thread asks for
// the same lock through a descriptor of its own and waits until main lets
// go (clean: the shared counter is atomic, TSan does not model flock).
// Under explore, flock gives way while the lock is held elsewhere, so main
// runs on and unlocks; blocking in the kernel would hang the run.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

int main() {
  const char* tmp = getenv("TMPDIR");
  std::string path =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/racelab_flock_XXXXXX";
  const int mine = mkstemp(path.data());
  if (mine < 0) return 2;
  const int theirs = open(path.c_str(), O_RDWR);
  unlink(path.c_str());
  if (theirs < 0 || flock(mine, LOCK_EX) != 0) return 2;
  std::atomic<int> stage{0};
  std::thread waiter([&] {
    if (flock(theirs, LOCK_EX) != 0) _exit(3);
    if (stage.load() != 1) _exit(4);  // main unlocks only after stage 1
    stage.store(2);
    flock(theirs, LOCK_UN);
  });
  stage.store(1);
  flock(mine, LOCK_UN);
  waiter.join();
  close(mine);
  close(theirs);
  return stage.load() == 2 ? 0 : 1;
}
