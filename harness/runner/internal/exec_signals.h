// The signal state a program racelab starts should begin with, set in a
// child between a raw fork and exec: nothing blocked, and the signals that
// racelab handles or ignores for itself (SIGPIPE, SIGINT, SIGTERM, SIGXFSZ,
// SIGHUP, SIGQUIT) back to their default actions (exec keeps an ignored
// signal ignored). Raw system calls only: the caller is a copy of a
// multi-threaded sanitizer process.
#ifndef RACELAB_SRC_EXEC_SIGNALS_H_
#define RACELAB_SRC_EXEC_SIGNALS_H_

#include <signal.h>
#include <sys/syscall.h>

#include "racelab/raw_syscall.h"

namespace racelab {

__attribute__((no_sanitize("thread", "address"))) inline void
restore_default_signals() {
  sigset_t none;
  __builtin_memset(&none, 0, sizeof none);
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof(long));
  struct {
    void* handler;
    unsigned long flags;
    void* restorer;
    unsigned long mask;
  } dfl = {nullptr, 0, nullptr, 0};  // handler 0 is SIG_DFL
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGXFSZ, SIGHUP, SIGQUIT})
    raw_syscall(SYS_rt_sigaction, sig, &dfl, nullptr, sizeof(long));
}

}  // namespace racelab

#endif  // RACELAB_SRC_EXEC_SIGNALS_H_
