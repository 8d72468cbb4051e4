// Conformance: the racy twin of program_global_send_pipe_read: the reader
// sets the program's own global `send` before its read, main sets it before
// its write, and nothing orders the two.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <unistd.h>

#include <thread>

int send = 0;

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  std::thread reader([&] {
    send = 1;
    char byte;
    if (read(fds[0], &byte, 1) != 1) send = 3;
  });
  send = 2;
  if (write(fds[1], "x", 1) != 1) return 2;
  reader.join();
  return 0;
}
