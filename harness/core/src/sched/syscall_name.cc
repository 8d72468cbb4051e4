// The system call names of syscall_name.h.
#include "racelab/syscall_name.h"

#include <sys/syscall.h>

namespace racelab {

const char* syscall_name(long number) {
  switch (number) {
    case SYS_read:
      return "read";
    case SYS_write:
      return "write";
    case SYS_poll:
      return "poll";
    case SYS_ppoll:
      return "ppoll";
    case SYS_select:
      return "select";
    case SYS_pselect6:
      return "pselect6";
    case SYS_epoll_wait:
      return "epoll_wait";
    case SYS_epoll_pwait:
      return "epoll_pwait";
    case SYS_futex:
      return "futex";
    case SYS_nanosleep:
      return "nanosleep";
    case SYS_clock_nanosleep:
      return "clock_nanosleep";
    case SYS_wait4:
      return "wait4";
    case SYS_accept:
      return "accept";
    case SYS_accept4:
      return "accept4";
    case SYS_recvfrom:
      return "recvfrom";
    case SYS_recvmsg:
      return "recvmsg";
    case SYS_connect:
      return "connect";
    case SYS_pause:
      return "pause";
    case SYS_rt_sigtimedwait:
      return "rt_sigtimedwait";
    case SYS_rt_sigsuspend:
      return "rt_sigsuspend";
    case SYS_flock:
      return "flock";
    case SYS_fcntl:
      return "fcntl";
    case SYS_readv:
      return "readv";
    case SYS_pread64:
      return "pread64";
    case SYS_writev:
      return "writev";
    default:
      return nullptr;
  }
}

}  // namespace racelab
