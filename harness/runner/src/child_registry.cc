// The set of live child processes; see child_registry.h.
#include "racelab/child_registry.h"

#include <signal.h>

namespace racelab {

bool ChildRegistry::add(pid_t pid) {
  std::lock_guard lock(mu_);
  if (stopped_) {
    ::kill(pid, stop_signal_);
    return false;
  }
  pids_.insert(pid);
  return true;
}

void ChildRegistry::remove(pid_t pid) {
  std::lock_guard lock(mu_);
  pids_.erase(pid);
}

int ChildRegistry::stop_all(int sig) {
  std::lock_guard lock(mu_);
  if (!stopped_) {
    stopped_ = true;
    stop_signal_ = sig;
  }
  int signalled = 0;
  for (pid_t pid : pids_) signalled += ::kill(pid, sig) == 0;
  return signalled;
}

bool ChildRegistry::stopped() const {
  std::lock_guard lock(mu_);
  return stopped_;
}

std::size_t ChildRegistry::size() const {
  std::lock_guard lock(mu_);
  return pids_.size();
}

ChildRegistry& child_registry() {
  // Process-wide on purpose: the children of this process, which a signal
  // handler must be able to stop whichever command started them.
  static ChildRegistry* registry = new ChildRegistry;
  return *registry;
}

int stop_all_children() { return child_registry().stop_all(SIGKILL); }

}  // namespace racelab
