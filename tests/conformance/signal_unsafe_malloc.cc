// Conformance: a signal handler calls malloc (not async-signal-safe); the
// signal is raised by a second thread at main, which holds it blocked until
// that thread is joined, so the handler always runs at the same point (an
// unblocked arrival during thread creation is deferred by TSan to a place
// where it does not check the handler's calls: plain TSan missed it about
// 1 run in 15).
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
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, nullptr);
  const pthread_t self = pthread_self();
  std::thread t([self] { pthread_kill(self, SIGUSR1); });
  t.join();
  pthread_sigmask(SIG_UNBLOCK, &usr1, nullptr);
  return 0;
}
