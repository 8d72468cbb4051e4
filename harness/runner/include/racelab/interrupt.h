// What a long command does with the signals that would otherwise lose its
// work. SIGINT or SIGTERM: the first one stops every child in flight
// (stop_all_children(), from a watcher thread, since a signal handler may not
// take a lock) and asks the command to stop, so that it writes what it has
// finished and exits 128 + the signal; a second one ends the process at once,
// unless it is the same signal from the process that sent the first
// (timeout(1) sends its signal to racelab and again to racelab's process
// group: one request).
// SIGPIPE and SIGXFSZ: a write to a closed pipe or past the file-size limit
// fails with EPIPE or EFBIG, which the writers report, instead of killing the
// process. These are handlers, not SIG_IGN, so children started with exec get
// the default actions back.
#ifndef RACELAB_SRC_INTERRUPT_H_
#define RACELAB_SRC_INTERRUPT_H_

namespace racelab {

// Installs the SIGINT and SIGTERM handlers and the watcher for its lifetime.
// One at a time per process.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // The first SIGINT or SIGTERM received, 0 while none.
  static int signal_received();
};

// Installs the SIGPIPE and SIGXFSZ handlers (for the rest of the process).
void report_write_errors_instead_of_dying();

}  // namespace racelab

#endif  // RACELAB_SRC_INTERRUPT_H_
