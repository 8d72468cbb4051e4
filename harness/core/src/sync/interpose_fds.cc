// The interposed calls that wait on file descriptors (the mechanism:
// interpose.cc). A thread of a controlled run that would block in one of
// them would block holding the turn, while the thread that would make the
// descriptor ready (the writer of a pipe, the peer of a socket pair) waits
// for that turn. So, under control, each call first asks the kernel without
// waiting whether it can proceed (poll with a zero timeout); while it cannot
// and another thread of the run can run, the caller gives way (a yield
// point: no progress, see docs/controlled-mode.md) and asks again when it is
// picked. When no other thread of the run can run, only the world outside
// can make the descriptor ready, and the real call waits for it (a program
// that then never gets its input hangs as it would plainly, and `explore`
// reports the hang with every thread's stack).
//
// - read, readv, recv, recvfrom, recvmsg, accept, accept4: wait for POLLIN;
//   write, writev, send, sendto, sendmsg: for POLLOUT (a full pipe). A
//   descriptor in non-blocking mode, or a call with MSG_DONTWAIT, is passed
//   through; so is a descriptor poll says is ready, in error or closed: the
//   real call then returns at once. A write or send of more than a pipe or
//   a stream socket has room for is made in parts, giving way while it is
//   full (controlled_write). Not covered: recv with MSG_WAITALL, and
//   writev, sendto and sendmsg of more than the room (they may still wait
//   holding the turn: a hang, reported with every thread's stack).
// - poll, ppoll, epoll_wait, epoll_pwait, select: a zero timeout is passed
//   through; otherwise each look is the real call with a zero timeout, whose
//   result is returned once it finds something (so no event is consumed
//   twice). A finite timeout is a timed wait: the scheduler's time, not the
//   clock's, ends it (a look that finds nothing after the thread was picked
//   again returns 0, as a timeout).
//
// The standard streams (descriptors 0 to 2) are passed through: they lead
// outside the run. Readiness that comes from outside the run (another
// process, the network) on other descriptors makes the number of times a
// thread gives way depend on timing, so such a run may not replay exactly.
//
// The real calls are TSan's interceptors, which record the happens-before
// edges of a pipe's or socket's writes and reads. Compiled without sanitizer
// instrumentation, as interpose.cc.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/raw_syscall.h"

using racelab::PointEffect;
using racelab::SchedulingHooks;
using racelab::interpose_internal::controlling;

RACELAB_REAL(ssize_t, read, (int, void*, size_t))
RACELAB_REAL(ssize_t, readv, (int, const struct iovec*, int))
RACELAB_REAL(ssize_t, recv, (int, void*, size_t, int))
RACELAB_REAL(ssize_t, recvfrom,
             (int, void*, size_t, int, struct sockaddr*, socklen_t*))
RACELAB_REAL(ssize_t, recvmsg, (int, struct msghdr*, int))
RACELAB_REAL(int, accept, (int, struct sockaddr*, socklen_t*))
RACELAB_REAL(int, accept4, (int, struct sockaddr*, socklen_t*, int))
RACELAB_REAL(ssize_t, write, (int, const void*, size_t))
RACELAB_REAL(ssize_t, writev, (int, const struct iovec*, int))
RACELAB_REAL(ssize_t, send, (int, const void*, size_t, int))
RACELAB_REAL(ssize_t, sendto,
             (int, const void*, size_t, int, const struct sockaddr*, socklen_t))
RACELAB_REAL(ssize_t, sendmsg, (int, const struct msghdr*, int))
RACELAB_REAL(int, poll, (struct pollfd*, nfds_t, int))
RACELAB_REAL(int, ppoll,
             (struct pollfd*, nfds_t, const struct timespec*, const sigset_t*))
RACELAB_REAL(int, epoll_wait, (int, struct epoll_event*, int, int))
RACELAB_REAL(int, epoll_pwait,
             (int, struct epoll_event*, int, int, const sigset_t*))
RACELAB_REAL(int, select, (int, fd_set*, fd_set*, fd_set*, struct timeval*))

namespace {

// Whether a blocking call on `fd` for `events` would wait: the descriptor
// is in blocking mode and poll finds nothing (no event, no error, no
// hang-up). Asked of the kernel directly, past every interceptor.
bool would_wait(int fd, short events) {
  // The standard streams are the outside world's (under explore, racelab's
  // capture pipes): when one is ready depends on how fast that reader is,
  // and giving way on it would make the schedule depend on timing. A write
  // to a full one waits holding the turn, as before racelab.
  if (fd <= STDERR_FILENO) return false;
  const long flags = racelab::raw_syscall(SYS_fcntl, fd, F_GETFL);
  if (flags < 0 || (flags & O_NONBLOCK) != 0) return false;
  pollfd look{fd, events, 0};
  return racelab::raw_syscall(SYS_poll, &look, 1, 0) == 0;
}

// Gives way while the call would wait and another thread of the run can
// run. Returns true when the call can proceed, false when only the outside
// world can make the descriptor ready (the real call then waits).
bool wait_for(SchedulingHooks* hooks, int fd, short events, const char* what) {
  while (would_wait(fd, events)) {
    if (!hooks->another_thread_can_run()) return false;
    hooks->yield_point(what, PointEffect::kYield);
  }
  return true;
}

// What kind of descriptor a blocking write goes to: a pipe, a stream
// socket, or anything else (a write that poll's answer covers).
enum class Sink { kPipe, kStreamSocket, kOther };

Sink sink_of(int fd) {
  struct stat about;
  if (racelab::raw_syscall(SYS_fstat, fd, &about) != 0) return Sink::kOther;
  if (S_ISFIFO(about.st_mode)) return Sink::kPipe;
  if (!S_ISSOCK(about.st_mode)) return Sink::kOther;
  int type = 0;
  socklen_t size = sizeof type;
  if (racelab::raw_syscall(SYS_getsockopt, fd, SOL_SOCKET, SO_TYPE, &type,
                           &size) != 0) {
    return Sink::kOther;
  }
  return type == SOCK_STREAM ? Sink::kStreamSocket : Sink::kOther;
}

// A blocking write of `size` bytes under control. poll's POLLOUT promises
// room for one atomic write (PIPE_BUF bytes) of a pipe and for some bytes of
// a stream socket, not for the whole: so a pipe is written PIPE_BUF bytes at
// a time and a stream socket with MSG_DONTWAIT, giving way whenever it is
// full, until every byte is written (as a blocking write does, which is not
// atomic past PIPE_BUF either). `plain` is the real call as made.
template <class Plain>
ssize_t controlled_write(SchedulingHooks* hooks, const char* what, int fd,
                         const char* data, size_t size, int flags,
                         Plain plain) {
  const long mode = racelab::raw_syscall(SYS_fcntl, fd, F_GETFL);
  const Sink sink = fd <= STDERR_FILENO ? Sink::kOther : sink_of(fd);
  if (mode < 0 || (mode & O_NONBLOCK) != 0 || sink == Sink::kOther) {
    wait_for(hooks, fd, POLLOUT, what);
    return plain(data, size);
  }
  size_t done = 0;
  while (done < size) {
    if (!wait_for(hooks, fd, POLLOUT, what)) {
      const ssize_t rest = plain(data + done, size - done);
      return rest < 0 ? (done > 0 ? static_cast<ssize_t>(done) : rest)
                      : static_cast<ssize_t>(done) + rest;
    }
    const ssize_t put =
        sink == Sink::kPipe
            ? real_write()(fd, data + done,
                           std::min<size_t>(size - done, PIPE_BUF))
            : real_send()(fd, data + done, size - done, flags | MSG_DONTWAIT);
    if (put < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return done > 0 ? static_cast<ssize_t>(done) : put;
    }
    done += static_cast<size_t>(put);
  }
  return static_cast<ssize_t>(done);
}

template <class Real, class... Args>
auto on_fd(const char* what, int fd, short events, Real real, Args... args) {
  if (SchedulingHooks* hooks = controlling()) {
    wait_for(hooks, fd, events, what);
  }
  return real(fd, args...);
}

// A multiplexing wait (poll, epoll_wait, select): `look(0)` is the real call
// with a zero timeout, `block()` the real call as made. `limit`: the
// caller's timeout, or null for none. A wait that times out (the
// scheduler's timeout, or the real wait's) returns with the run's clocks at
// its end.
template <class Look, class Block>
int multiplexed(const char* what, const timespec* limit, Look look,
                Block block) {
  SchedulingHooks* hooks = controlling();
  const bool zero_timeout =
      limit != nullptr && limit->tv_sec == 0 && limit->tv_nsec == 0;
  if (hooks == nullptr || zero_timeout) return block();
  const racelab::Timeout end =
      racelab::interpose_internal::timeout_after(limit);
  for (bool picked_again = false;; picked_again = true) {
    const int found = look();
    if (found != 0) return found;
    if (limit != nullptr && picked_again) {  // the scheduler's timeout
      hooks->time_passes_until(end);
      return 0;
    }
    if (!hooks->another_thread_can_run()) {
      const int result = block();
      if (result == 0) hooks->time_passes_until(end);
      return result;
    }
    hooks->yield_point(what, PointEffect::kYield);
  }
}

// The timeout of poll and epoll_wait (negative: none) as a limit.
const timespec* limit_of(int timeout_ms, timespec* limit) {
  if (timeout_ms < 0) return nullptr;
  *limit = {timeout_ms / 1000, timeout_ms % 1000 * 1'000'000L};
  return limit;
}

}  // namespace

RACELAB_BEGIN_INTERPOSED
extern "C" {

ssize_t read(int fd, void* buffer, size_t size) {
  return on_fd("read", fd, POLLIN, real_read(), buffer, size);
}

ssize_t readv(int fd, const struct iovec* parts, int count) {
  return on_fd("readv", fd, POLLIN, real_readv(), parts, count);
}

ssize_t recv(int fd, void* buffer, size_t size, int flags) {
  if ((flags & MSG_DONTWAIT) != 0) return real_recv()(fd, buffer, size, flags);
  return on_fd("recv", fd, POLLIN, real_recv(), buffer, size, flags);
}

ssize_t recvfrom(int fd, void* buffer, size_t size, int flags,
                 struct sockaddr* from, socklen_t* from_size) {
  if ((flags & MSG_DONTWAIT) != 0) {
    return real_recvfrom()(fd, buffer, size, flags, from, from_size);
  }
  return on_fd("recvfrom", fd, POLLIN, real_recvfrom(), buffer, size, flags,
               from, from_size);
}

ssize_t recvmsg(int fd, struct msghdr* message, int flags) {
  if ((flags & MSG_DONTWAIT) != 0) return real_recvmsg()(fd, message, flags);
  return on_fd("recvmsg", fd, POLLIN, real_recvmsg(), message, flags);
}

int accept(int fd, struct sockaddr* peer, socklen_t* peer_size) {
  return on_fd("accept", fd, POLLIN, real_accept(), peer, peer_size);
}

int accept4(int fd, struct sockaddr* peer, socklen_t* peer_size, int flags) {
  return on_fd("accept4", fd, POLLIN, real_accept4(), peer, peer_size, flags);
}

ssize_t write(int fd, const void* buffer, size_t size) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return real_write()(fd, buffer, size);
  return controlled_write(hooks, "write", fd, static_cast<const char*>(buffer),
                          size, 0, [&](const char* data, size_t left) {
                            return real_write()(fd, data, left);
                          });
}

ssize_t writev(int fd, const struct iovec* parts, int count) {
  return on_fd("writev", fd, POLLOUT, real_writev(), parts, count);
}

ssize_t send(int fd, const void* buffer, size_t size, int flags) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr || (flags & MSG_DONTWAIT) != 0) {
    return real_send()(fd, buffer, size, flags);
  }
  return controlled_write(hooks, "send", fd, static_cast<const char*>(buffer),
                          size, flags, [&](const char* data, size_t left) {
                            return real_send()(fd, data, left, flags);
                          });
}

ssize_t sendto(int fd, const void* buffer, size_t size, int flags,
               const struct sockaddr* to, socklen_t to_size) {
  if ((flags & MSG_DONTWAIT) != 0) {
    return real_sendto()(fd, buffer, size, flags, to, to_size);
  }
  return on_fd("sendto", fd, POLLOUT, real_sendto(), buffer, size, flags, to,
               to_size);
}

ssize_t sendmsg(int fd, const struct msghdr* message, int flags) {
  if ((flags & MSG_DONTWAIT) != 0) return real_sendmsg()(fd, message, flags);
  return on_fd("sendmsg", fd, POLLOUT, real_sendmsg(), message, flags);
}

int poll(struct pollfd* fds, nfds_t count, int timeout_ms) {
  timespec limit;
  return multiplexed(
      "poll", limit_of(timeout_ms, &limit),
      [&] { return real_poll()(fds, count, 0); },
      [&] { return real_poll()(fds, count, timeout_ms); });
}

int ppoll(struct pollfd* fds, nfds_t count, const struct timespec* timeout,
          const sigset_t* mask) {
  const struct timespec none = {0, 0};
  return multiplexed(
      "ppoll", timeout, [&] { return real_ppoll()(fds, count, &none, mask); },
      [&] { return real_ppoll()(fds, count, timeout, mask); });
}

int epoll_wait(int epoll_fd, struct epoll_event* events, int most,
               int timeout_ms) {
  timespec limit;
  return multiplexed(
      "epoll_wait", limit_of(timeout_ms, &limit),
      [&] { return real_epoll_wait()(epoll_fd, events, most, 0); },
      [&] { return real_epoll_wait()(epoll_fd, events, most, timeout_ms); });
}

int epoll_pwait(int epoll_fd, struct epoll_event* events, int most,
                int timeout_ms, const sigset_t* mask) {
  timespec limit;
  return multiplexed(
      "epoll_pwait", limit_of(timeout_ms, &limit),
      [&] { return real_epoll_pwait()(epoll_fd, events, most, 0, mask); },
      [&] {
        return real_epoll_pwait()(epoll_fd, events, most, timeout_ms, mask);
      });
}

// select changes its sets: each look works on copies and only the look that
// finds something (or the real wait) writes the caller's.
int select(int count, fd_set* readable, fd_set* writable, fd_set* failed,
           struct timeval* timeout) {
  timespec limit;
  if (timeout != nullptr) {
    limit = {timeout->tv_sec, static_cast<long>(timeout->tv_usec) * 1000};
  }
  return multiplexed(
      "select", timeout != nullptr ? &limit : nullptr,
      [&] {
        fd_set r, w, f;
        if (readable != nullptr) r = *readable;
        if (writable != nullptr) w = *writable;
        if (failed != nullptr) f = *failed;
        struct timeval none = {0, 0};
        const int found =
            real_select()(count, readable != nullptr ? &r : nullptr,
                          writable != nullptr ? &w : nullptr,
                          failed != nullptr ? &f : nullptr, &none);
        if (found != 0) {
          if (readable != nullptr) *readable = r;
          if (writable != nullptr) *writable = w;
          if (failed != nullptr) *failed = f;
        }
        return found;
      },
      [&] {
        return real_select()(count, readable, writable, failed, timeout);
      });
}

}  // extern "C"
RACELAB_END_INTERPOSED

// Referenced by the link options of racelab_sync, as interpose.cc's anchor.
extern "C" const char racelab_interpose_fds_anchor = 0;
