// Conformance: a thread blocks reading a pipe that main writes after it
// published a value; TSan orders the pipe's write before its read, so the
// reader sees the value without a race. Under explore the reader must give
// way to main while the pipe is empty (it would otherwise wait holding the
// turn: a hang).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <unistd.h>

#include <thread>

int published = 0;

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  int seen = 0;
  std::thread reader([&] {
    char byte;
    if (read(fds[0], &byte, 1) == 1) seen = published;
  });
  published = 42;
  if (write(fds[1], "x", 1) != 1) return 2;
  reader.join();
  return seen == 42 ? 0 : 1;
}
