// Conformance: main writes more than a pipe holds (its capacity set to one
// page), so its write blocks until the reader drains the pipe; the reader
// counts what arrives. Under explore the writer must give way to the reader
// while the pipe is full, and the reader to the writer while it is empty.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <fcntl.h>
#include <unistd.h>

#include <thread>

int main() {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  fcntl(fds[1], F_SETPIPE_SZ, 4096);
  constexpr int kBytes = 3 * 4096;
  int received = 0;
  std::thread reader([&] {
    char buffer[1024];
    for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) > 0;) {
      received += static_cast<int>(got);
    }
  });
  static char data[kBytes];
  for (int sent = 0; sent < kBytes;) {
    const ssize_t put = write(fds[1], data + sent, kBytes - sent);
    if (put <= 0) return 2;
    sent += static_cast<int>(put);
  }
  close(fds[1]);
  reader.join();
  return received == kBytes ? 0 : 1;
}
