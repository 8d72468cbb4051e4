// The interposed calls that wait on the operating system rather than on
// memory: a child process (wait, waitpid, wait4, waitid), a file lock
// (flock), a signal (sigwait, sigwaitinfo, sigtimedwait). The mechanism is
// interpose_fds.cc's: under control, each call first asks the kernel without
// waiting (WNOHANG, LOCK_NB, a zero timeout); while the answer is "not yet"
// and another thread of the run can run, the caller gives way (a yield
// point: no progress) and asks again when it is picked. When no other thread
// of the run can run, only the world outside can end the wait, and the real
// call waits for it.
//
// So a thread that waits for a child another thread starts, for a lock of a
// file another thread holds, or for a signal another thread sends, lets that
// thread run, where it would otherwise block in the kernel holding the turn.
// A wait that ends by itself (a child that exits on its own) makes the
// number of times the caller gives way depend on timing: such a run may not
// replay exactly. sigtimedwait with a finite timeout is a timed wait: after
// giving way once, a look that still finds nothing returns EAGAIN, as a
// timeout (the scheduler's time, as for poll's).
//
// The real calls are the sanitizer's interceptors where it has them.
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <errno.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"

using racelab::PointEffect;
using racelab::SchedulingHooks;
using racelab::interpose_internal::controlling;

RACELAB_REAL(pid_t, waitpid, (pid_t, int*, int))
RACELAB_REAL(pid_t, wait4, (pid_t, int*, int, struct rusage*))
RACELAB_REAL(int, waitid, (idtype_t, id_t, siginfo_t*, int))
RACELAB_REAL(int, flock, (int, int))
RACELAB_REAL(int, sigtimedwait,
             (const sigset_t*, siginfo_t*, const struct timespec*))
RACELAB_REAL(int, sigwaitinfo, (const sigset_t*, siginfo_t*))
RACELAB_REAL(int, sigwait, (const sigset_t*, int*))

namespace {

constexpr timespec kNoWait{0, 0};

// Asks `look` (the call made without waiting) until it has an answer;
// between looks, gives way while another thread of the run can run.
// Returns true with the answer's `result` when a look had one, false when
// only the outside world can end the wait (the real call then waits).
// `timed`: one give-way, then the last look's answer stands.
template <class Look>
bool look_while_others_run(SchedulingHooks* hooks, const char* what, bool timed,
                           Look look) {
  for (int gave_way = 0;; ++gave_way) {
    if (look()) return true;
    if (timed && gave_way > 0) return true;
    if (!hooks->another_thread_can_run()) return false;
    hooks->yield_point(what, PointEffect::kYield);
  }
}

// A wait4 that blocks, under control: WNOHANG looks first.
pid_t controlled_wait4(pid_t pid, int* status, int options,
                       struct rusage* usage) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || (options & WNOHANG) != 0) {
    return real_wait4()(pid, status, options, usage);
  }
  pid_t got = 0;
  const bool answered = look_while_others_run(hooks, "wait", false, [&] {
    got = real_wait4()(pid, status, options | WNOHANG, usage);
    return got != 0;  // a child changed state, or an error (ECHILD)
  });
  return answered ? got : real_wait4()(pid, status, options, usage);
}

// A sigtimedwait under control; `timeout` nullptr: no limit.
int controlled_sigtimedwait(const sigset_t* set, siginfo_t* info,
                            const timespec* timeout) {
  SchedulingHooks* hooks = controlling();
  const bool zero =
      timeout != nullptr && timeout->tv_sec == 0 && timeout->tv_nsec == 0;
  if (hooks == nullptr || zero) {
    return real_sigtimedwait()(set, info, timeout);
  }
  const racelab::Timeout end =
      racelab::interpose_internal::timeout_after(timeout);
  int got = -1;
  int error = 0;
  const bool answered =
      look_while_others_run(hooks, "sigwait", timeout != nullptr, [&] {
        got = real_sigtimedwait()(set, info, &kNoWait);
        error = errno;
        return got >= 0 || error != EAGAIN;
      });
  if (!answered) {
    got = real_sigtimedwait()(set, info, timeout);
    error = errno;
  }
  // Timed out: the run's clocks read its end.
  if (got < 0 && error == EAGAIN) {
    hooks->time_passes_until(end);
  }
  errno = error;
  return got;
}

// waitpid(), which wait() is too: not through the name, which may be the
// program's own.
pid_t wait_for_child(pid_t pid, int* status, int options) {
  if (controlling() == nullptr) return real_waitpid()(pid, status, options);
  return controlled_wait4(pid, status, options, nullptr);
}

}  // namespace

RACELAB_BEGIN_INTERPOSED
extern "C" {

pid_t wait(int* status) { return wait_for_child(-1, status, 0); }

pid_t waitpid(pid_t pid, int* status, int options) {
  return wait_for_child(pid, status, options);
}

pid_t wait4(pid_t pid, int* status, int options, struct rusage* usage) {
  return controlled_wait4(pid, status, options, usage);
}

int waitid(idtype_t type, id_t id, siginfo_t* info, int options) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || (options & WNOHANG) != 0) {
    return real_waitid()(type, id, info, options);
  }
  int got = 0;
  const bool answered = look_while_others_run(hooks, "waitid", false, [&] {
    info->si_pid = 0;  // WNOHANG leaves it 0 when no child changed state
    got = real_waitid()(type, id, info, options | WNOHANG);
    return got != 0 || info->si_pid != 0;
  });
  return answered ? got : real_waitid()(type, id, info, options);
}

int flock(int fd, int operation) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || (operation & LOCK_NB) != 0 ||
      (operation & LOCK_UN) != 0) {
    return real_flock()(fd, operation);
  }
  int got = 0;
  int error = 0;
  const bool answered = look_while_others_run(hooks, "flock", false, [&] {
    got = real_flock()(fd, operation | LOCK_NB);
    error = errno;
    return got == 0 || error != EWOULDBLOCK;
  });
  if (!answered) return real_flock()(fd, operation);
  errno = error;
  return got;
}

int sigtimedwait(const sigset_t* set, siginfo_t* info,
                 const struct timespec* timeout) {
  return controlled_sigtimedwait(set, info, timeout);
}

int sigwaitinfo(const sigset_t* set, siginfo_t* info) {
  if (controlling() == nullptr) return real_sigwaitinfo()(set, info);
  return controlled_sigtimedwait(set, info, nullptr);
}

// sigwait returns the error number rather than setting errno.
int sigwait(const sigset_t* set, int* signal) {
  if (controlling() == nullptr) return real_sigwait()(set, signal);
  siginfo_t info;
  const int errno_before = errno;
  const int got = controlled_sigtimedwait(set, &info, nullptr);
  if (got < 0) {
    const int error = errno;
    errno = errno_before;
    return error;
  }
  *signal = got;
  return 0;
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab::core, so that a program's link
// keeps this file's definitions (harness/core/CMakeLists.txt).
extern "C" const char racelab_interpose_os_waits_anchor = 0;
