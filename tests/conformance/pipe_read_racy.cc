// Conformance: the racy twin of pipe_read: main publishes the value after
// its write to the pipe, so nothing orders it before the reader's look.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
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
  if (write(fds[1], "x", 1) != 1) return 2;
  published = 42;
  reader.join();
  return seen >= 0 ? 0 : 1;
}
