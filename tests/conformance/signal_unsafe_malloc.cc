// Conformance: a signal handler calls malloc (not async-signal-safe); the
// signal is raised by a second thread at main.
// EXPECT-PLAIN: signal-unsafe-call-inside-of-a-signal
// EXPECT-EXPLORE: crash
#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <thread>

void handler(int) {
  volatile char* p = static_cast<char*>(std::malloc(1));
  p[0] = 0;
  std::free(const_cast<char*>(p));
}

int main() {
  struct sigaction act = {};
  act.sa_handler = handler;
  sigaction(SIGUSR1, &act, nullptr);
  const pthread_t self = pthread_self();
  std::thread t([self] { pthread_kill(self, SIGUSR1); });
  t.join();
  return 0;
}
