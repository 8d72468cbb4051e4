// Signal handling of long commands; see interrupt.h.
#include "racelab/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <thread>

#include "racelab/child_registry.h"

namespace racelab {
namespace {

// Process-wide on purpose: signal handlers and the signal a command
// received belong to the process (one InterruptScope at a time).
std::atomic<int> g_signal{0};
int g_wake[2] = {-1, -1};
struct sigaction g_old_int, g_old_term;
std::thread* g_watcher = nullptr;

extern "C" void on_stop_signal(int sig) {
  int expected = 0;
  if (!g_signal.compare_exchange_strong(expected, sig)) {
    // The second one: the default action, now.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;
  }
  const int saved = errno;
  const char stop = 1;
  [[maybe_unused]] ssize_t n = ::write(g_wake[1], &stop, 1);
  errno = saved;
}

extern "C" void on_write_error_signal(int) {}

void install(int sig, void (*handler)(int), struct sigaction* old) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(sig, &action, old);
}

}  // namespace

InterruptScope::InterruptScope() {
  g_signal = 0;
  if (::pipe2(g_wake, O_CLOEXEC) != 0) {
    g_wake[0] = g_wake[1] = -1;
    return;  // without a pipe, no handlers: the signals keep their defaults
  }
  g_watcher = new std::thread([] {
    char c = 0;
    while (true) {
      const ssize_t n = ::read(g_wake[0], &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || c == 0) return;
      stop_all_children();
    }
  });
  install(SIGINT, on_stop_signal, &g_old_int);
  install(SIGTERM, on_stop_signal, &g_old_term);
}

InterruptScope::~InterruptScope() {
  if (g_watcher == nullptr) return;
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  const char quit = 0;
  [[maybe_unused]] ssize_t n = ::write(g_wake[1], &quit, 1);
  g_watcher->join();
  delete g_watcher;
  g_watcher = nullptr;
  ::close(g_wake[0]);
  ::close(g_wake[1]);
  g_wake[0] = g_wake[1] = -1;
}

int InterruptScope::signal_received() { return g_signal.load(); }

void report_write_errors_instead_of_dying() {
  install(SIGPIPE, on_write_error_signal, nullptr);
  install(SIGXFSZ, on_write_error_signal, nullptr);
}

}  // namespace racelab
