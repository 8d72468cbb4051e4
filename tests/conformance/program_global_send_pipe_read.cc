// Conformance: pipe_read in a program with its own global `send`: a thread
// blocks reading a pipe that main writes after it set `send`; the pipe orders
// the two (clean). The program's `send` replaces racelab's interposed send(),
// and racelab still interposes read() and write(): under explore the reader
// must give way to main while the pipe is empty (it would otherwise wait
// holding the turn).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <unistd.h>

#include <thread>

int send = 0;

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  int seen = 0;
  std::thread reader([&] {
    char byte;
    if (read(fds[0], &byte, 1) == 1) seen = send;
  });
  send = 42;
  if (write(fds[1], "x", 1) != 1) return 2;
  reader.join();
  return seen == 42 ? 0 : 1;
}
