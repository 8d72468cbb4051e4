// Signal handling of long commands; see interrupt.h.
#include "racelab/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <thread>

#include "racelab/child_registry.h"

namespace racelab {
namespace {

// Process-wide on purpose: signal handlers and the signal a command
// received belong to the process (one InterruptScope at a time). The first
// SIGINT or SIGTERM, and who sent it (the pid of a kill(), 0 otherwise), in
// one word so that a handler running on another thread sees both:
// signal | sender << 8.
std::atomic<std::uint64_t> g_stop{0};
int g_wake[2] = {-1, -1};
struct sigaction g_old_int, g_old_term;
std::thread* g_watcher = nullptr;

extern "C" void on_stop_signal(int sig, siginfo_t* info, void*) {
  const std::uint64_t sender =
      info != nullptr && info->si_code == SI_USER && info->si_pid > 0
          ? static_cast<std::uint64_t>(info->si_pid)
          : 0;
  const std::uint64_t received = static_cast<std::uint64_t>(sig) | sender << 8;
  std::uint64_t expected = 0;
  if (!g_stop.compare_exchange_strong(expected, received)) {
    // The same signal again from the process that sent it: the same request
    // (timeout(1) sends its signal to racelab and again to its process
    // group).
    if (sender != 0 && expected == received) return;
    // A second one: the default action, now.
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

// The same, for a handler that is told who sent the signal.
void install(int sig, void (*handler)(int, siginfo_t*, void*),
             struct sigaction* old) {
  struct sigaction action {};
  action.sa_sigaction = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_SIGINFO;
  ::sigaction(sig, &action, old);
}

}  // namespace

InterruptScope::InterruptScope() {
  g_stop = 0;
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

int InterruptScope::signal_received() {
  return static_cast<int>(g_stop.load() & 0xff);
}

void report_write_errors_instead_of_dying() {
  install(SIGPIPE, on_write_error_signal, nullptr);
  install(SIGXFSZ, on_write_error_signal, nullptr);
}

}  // namespace racelab
