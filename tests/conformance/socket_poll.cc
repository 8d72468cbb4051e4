// Conformance: a server thread waits in poll, then in epoll_wait, then in
// select, on its end of a socket pair, and answers each message main sends
// with recv and send; main waits for each answer in recv. Every wait is for
// the other thread.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

int main() {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0) return 2;
  const int server_end = ends[0], client_end = ends[1];
  std::thread server([server_end] {
    const int epoll_fd = epoll_create1(0);
    epoll_event interest{};
    interest.events = EPOLLIN;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, server_end, &interest);
    for (int round = 0; round < 3; ++round) {
      if (round == 0) {
        pollfd look{server_end, POLLIN, 0};
        poll(&look, 1, -1);
      } else if (round == 1) {
        epoll_event event;
        epoll_wait(epoll_fd, &event, 1, -1);
      } else {
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(server_end, &readable);
        select(server_end + 1, &readable, nullptr, nullptr, nullptr);
      }
      char byte;
      if (recv(server_end, &byte, 1, 0) != 1) break;
      byte = static_cast<char>(byte + 1);
      send(server_end, &byte, 1, 0);
    }
    close(epoll_fd);
  });
  char byte = 'a';
  for (int round = 0; round < 3; ++round) {
    send(client_end, &byte, 1, 0);
    if (recv(client_end, &byte, 1, 0) != 1) return 1;
  }
  server.join();
  return byte == 'd' ? 0 : 1;
}
