// The clocks a program reads, interposed so that in a controlled run they
// read the run's time (docs/controlled-mode.md, "Time";
// src/sched/run_clock.h): clock_gettime for every clock the run keeps,
// gettimeofday, time and timespec_get (std::chrono's system_clock,
// steady_clock and high_resolution_clock read clock_gettime). Outside a
// controlled run, on a thread that is not one of the run's, and for the
// CPU-time clocks, each is the real call.
//
// Compiled without sanitizer instrumentation, as interpose.cc.
#include <sys/time.h>
#include <time.h>

#include "interpose_common.h"

using racelab::SchedulingHooks;

RACELAB_REAL(int, clock_gettime, (clockid_t, struct timespec*))
RACELAB_REAL(int, gettimeofday, (struct timeval*, void*))
RACELAB_REAL(time_t, time, (time_t*))
RACELAB_REAL(int, timespec_get, (struct timespec*, int))

namespace racelab::interpose_internal {

int real_clock_gettime(clockid_t clock, timespec* now) {
  return ::real_clock_gettime()(clock, now);
}

bool run_clock_now(clockid_t clock, timespec* now) {
  SchedulingHooks* hooks = controlling();
  return hooks != nullptr && hooks->read_clock(clock, now);
}

int clock_now(clockid_t clock, timespec* now) {
  if (run_clock_now(clock, now)) return 0;
  return ::real_clock_gettime()(clock, now);
}

}  // namespace racelab::interpose_internal

namespace {
using racelab::interpose_internal::run_clock_now;
}  // namespace

RACELAB_BEGIN_INTERPOSED
extern "C" {

int clock_gettime(clockid_t clock, struct timespec* now) noexcept {
  if (run_clock_now(clock, now)) return 0;
  return real_clock_gettime()(clock, now);
}

int gettimeofday(struct timeval* now, void* zone) noexcept {
  timespec run{};
  if (run_clock_now(CLOCK_REALTIME, &run)) {
    now->tv_sec = run.tv_sec;
    now->tv_usec = run.tv_nsec / 1000;
    if (zone != nullptr) {  // obsolete: glibc answers zero too
      *static_cast<struct timezone*>(zone) = {};
    }
    return 0;
  }
  return real_gettimeofday()(now, zone);
}

time_t time(time_t* now) noexcept {
  timespec run{};
  if (run_clock_now(CLOCK_REALTIME, &run)) {
    if (now != nullptr) *now = run.tv_sec;
    return run.tv_sec;
  }
  return real_time()(now);
}

int timespec_get(struct timespec* now, int base) noexcept {
  if (base == TIME_UTC && run_clock_now(CLOCK_REALTIME, now)) {
    return base;
  }
  return real_timespec_get()(now, base);
}

}  // extern "C"
RACELAB_END_INTERPOSED
