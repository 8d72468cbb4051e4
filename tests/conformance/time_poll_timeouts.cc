// Conformance: waits on a pipe nobody writes (poll, ppoll, select,
// epoll_wait) and sigtimedwait for a signal nobody sends time out only at
// their deadlines as the program's clocks see them. A second thread writes
// another pipe meanwhile.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "clock_check.h"

int main() {
  int quiet[2], busy[2];
  expect(pipe(quiet) == 0 && pipe(busy) == 0, "pipe failed");
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread writer([&] {
    const char byte = 'x';
    expect(write(busy[1], &byte, 1) == 1, "write failed");
  });
  pollfd look{quiet[0], POLLIN, 0};
  long long start = now_ns(CLOCK_MONOTONIC);
  expect(poll(&look, 1, 20) == 0, "poll did not time out");
  expect_took("poll", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  const timespec limit{0, 20'000'000};
  start = now_ns(CLOCK_MONOTONIC);
  expect(ppoll(&look, 1, &limit, nullptr) == 0, "ppoll did not time out");
  expect_took("ppoll", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  fd_set readable;
  FD_ZERO(&readable);
  FD_SET(quiet[0], &readable);
  timeval tv{0, 20'000};
  start = now_ns(CLOCK_MONOTONIC);
  expect(select(quiet[0] + 1, &readable, nullptr, nullptr, &tv) == 0,
         "select did not time out");
  expect_took("select", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  const int epoll = epoll_create1(0);
  epoll_event event{};
  event.events = EPOLLIN;
  epoll_ctl(epoll, EPOLL_CTL_ADD, quiet[0], &event);
  start = now_ns(CLOCK_MONOTONIC);
  expect(epoll_wait(epoll, &event, 1, 20) == 0, "epoll_wait did not time out");
  expect_took("epoll_wait", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  start = now_ns(CLOCK_MONOTONIC);
  expect(sigtimedwait(&set, nullptr, &limit) == -1 && errno == EAGAIN,
         "sigtimedwait did not time out");
  expect_took("sigtimedwait", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  writer.join();
  char byte;
  expect(read(busy[0], &byte, 1) == 1, "read failed");
  close(epoll);
}
