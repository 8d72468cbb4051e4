// Conformance: a signal handler that only sets a volatile sig_atomic_t (the
// clean twin of signal_unsafe_malloc).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <signal.h>

#include <thread>

volatile sig_atomic_t caught = 0;

void handler(int) { caught = 1; }

int main() {
  struct sigaction act = {};
  act.sa_handler = handler;
  sigaction(SIGUSR1, &act, nullptr);
  const pthread_t self = pthread_self();
  std::thread t([self] { pthread_kill(self, SIGUSR1); });
  t.join();
  return 0;
}
