// Conformance: main waits in sigwait for SIGUSR1, which a thread sends it
// after writing a value that main reads once it has joined the thread
// (clean). Under explore, sigwait gives way while no signal is pending, so
// the sender runs; blocking in the kernel would hang the run.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <pthread.h>
#include <signal.h>

#include <thread>

int value = 0;

int main() {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  // Blocked in main before the thread starts, so the thread inherits it and
  // the signal stays pending until sigwait takes it.
  if (pthread_sigmask(SIG_BLOCK, &usr1, nullptr) != 0) return 2;
  const pthread_t waiter = pthread_self();
  std::thread sender([waiter] {
    value = 42;
    pthread_kill(waiter, SIGUSR1);
  });
  int got = 0;
  if (sigwait(&usr1, &got) != 0 || got != SIGUSR1) return 3;
  sender.join();
  return value == 42 ? 0 : 1;
}
