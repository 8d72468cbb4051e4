// The live child processes of this process, so that an interrupted command
// (SIGINT, SIGTERM) can stop every run in flight at once. The runner adds a
// child right after spawning it and removes it before reaping it; the
// command's interrupt path calls stop_all_children().
#ifndef RACELAB_CHILD_REGISTRY_H_
#define RACELAB_CHILD_REGISTRY_H_

#include <sys/types.h>

#include <mutex>
#include <set>

namespace racelab {

// A mutex-protected set of live child pids. Once stop_all() has been called,
// the registry stays stopped: a child added later is killed at once, so a
// child spawned while the stop was under way cannot outlive it.
class ChildRegistry {
 public:
  // Records a live child. Returns false when the registry is stopped; the
  // child has then been sent the stop signal already.
  bool add(pid_t pid);
  // Forgets a child. Call it before the child is reaped (for example after
  // waitid(..., WNOWAIT), before waitpid()), so that a stop never signals a
  // pid the system has handed to another process.
  void remove(pid_t pid);
  // Sends `sig` to every live child and stops the registry. Returns how many
  // children were signalled.
  int stop_all(int sig);
  bool stopped() const;
  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::set<pid_t> pids_;
  bool stopped_ = false;
  int stop_signal_ = 0;
};

// The registry of this process.
ChildRegistry& child_registry();

// child_registry().stop_all(SIGKILL): the interrupt path's hook. SIGKILL
// because a sanitizer runtime busy in a report may ignore SIGTERM.
int stop_all_children();

}  // namespace racelab

#endif  // RACELAB_CHILD_REGISTRY_H_
