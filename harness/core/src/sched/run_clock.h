// The clocks of a controlled run (docs/controlled-mode.md, "Time"): virtual
// time. Every clock the program reads starts, the first time it is read in a
// run, at the real time, and then advances only as the run lets time pass: a
// timed wait that times out, a sleep that ends, and a small tick for each
// read (so that a loop that waits on the clock alone ends). So a timeout is
// seen only at its deadline, a sleep of 50 ms returns with the clocks 50 ms
// later and costs no real time, clocks never go backwards, and how much time
// passed in a run is decided by its decisions: a replay reads the same
// elapsed times.
//
// Thread-safe (a thread that runs free outside the scheduler's turn may read
// the clock); compiled without sanitizer instrumentation.
#ifndef RACELAB_SCHED_RUN_CLOCK_H_
#define RACELAB_SCHED_RUN_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace racelab::sched::internal {

class RunClock {
 public:
  // How much a read of a clock advances the run's time.
  static constexpr std::int64_t kReadTickNs = 1'000;
  // The longest real wait of one pass_until().
  static constexpr std::int64_t kMaxRealWaitNs = 10'000'000'000;  // 10 s

  // A new run: no time has passed, and no clock has been read.
  // `whole_program`: the run is a program's main (run_program), whose own
  // threads outside the run make pass_until() wait in real time; racelab's
  // in-process runs have harness threads beside them, which do not.
  void start(bool whole_program);
  // What `clock` reads now in the run, into `now`; one tick passes. False
  // for a clock the run does not keep (the CPU-time clocks, another
  // process's clock), which the real call answers.
  bool read(clockid_t clock, timespec* now);
  // Time passes until CLOCK_MONOTONIC, as the run's reads of it see it,
  // reads at least `monotonic_ns` (a deadline: Timeout::deadline_ns). When
  // threads outside the run work meanwhile (threads_outside_the_run_seen()),
  // in a whole program's run, the call also waits, in real time, until the
  // real clock reads it too (at most kMaxRealWaitNs): those threads run in
  // real time.
  void pass_until(std::int64_t monotonic_ns);
  // Time passes by `nanos`.
  void pass(std::int64_t nanos);
  // How long the run has run on its clocks, in nanoseconds.
  std::int64_t elapsed() const;
  // What CLOCK_MONOTONIC reads now in the run, without a read's tick.
  std::int64_t monotonic_now();

 private:
  // CLOCK_REALTIME (0) to CLOCK_TAI (11), without the CPU-time clocks.
  static constexpr int kClocks = 12;
  static bool keeps(clockid_t clock);
  void catch_up(std::int64_t monotonic_ns);
  std::int64_t base_of(clockid_t clock);

  std::int64_t elapsed_ = 0;
  bool whole_program_ = false;
  // Each clock's real time at its first read in the run, or kUnread.
  std::int64_t base_[kClocks] = {};
};

}  // namespace racelab::sched::internal

#endif  // RACELAB_SCHED_RUN_CLOCK_H_
