// Non-template parts of stress mode: the clock and the jitter.
#include "racelab/stress_runner.h"

#include <pthread.h>
#include <sched.h>

#include <string>

#include "racelab/sync.h"

namespace racelab::stress_internal {
namespace {

std::uint64_t g_jitter_seed = 0;

std::mt19937_64& thread_rng() {
  thread_local std::mt19937_64 rng(
      g_jitter_seed ^ std::hash<std::thread::id>{}(std::this_thread::get_id()));
  return rng;
}

void jitter_hook(const char* /*what*/) { jitter(); }

}  // namespace

std::uint64_t monotonic_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

void name_this_thread(int thread) {
  std::string name = "thread " + std::to_string(thread);
  pthread_setname_np(pthread_self(), name.c_str());
}

void jitter() {
  std::uint64_t r = thread_rng()();
  switch (r % 8) {
    case 0:
    case 1:
    case 2:
      sched_yield();
      break;
    case 3:
      std::this_thread::sleep_for(std::chrono::microseconds(1 + (r >> 8) % 50));
      break;
    default:
      break;  // no delay most of the time
  }
}

JitterScope::JitterScope(bool enabled, std::uint64_t seed) {
  g_jitter_seed = seed;
  if (enabled) set_stress_yield_hook(&jitter_hook);
}

JitterScope::~JitterScope() { set_stress_yield_hook(nullptr); }

}  // namespace racelab::stress_internal
