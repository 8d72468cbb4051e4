// Non-template parts of stress mode: the clock and the jitter.
#include "racelab/internal/stress_runner.h"

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <string>
#include <thread>

#include "racelab/internal/progress.h"
#include "racelab/session_state.h"
#include "racelab/sync.h"

namespace racelab::stress_internal {
namespace {

// The jitter settings and the running-thread count are the current
// session's (session_state.h).
session_internal::StressState& stress_state() {
  return session_internal::current().stress;
}

// Thread-local on purpose: each subject thread draws its own jitter. Seeded
// from the session's jitter seed when the thread first jitters (stress mode
// starts fresh threads for every run).
std::mt19937_64& thread_rng() {
  thread_local std::mt19937_64 rng(
      stress_state().jitter_seed.load(std::memory_order_relaxed) ^
      std::hash<std::thread::id>{}(std::this_thread::get_id()));
  return rng;
}

// A nudge: at one lock acquisition in kNudgeEvery, the thread steps aside
// until some other thread has made progress (racelab/internal/progress.h), or
// for at most kNudgeMaxMs. Free-running threads on a busy machine hardly ever
// overlap (each runs its whole operation in one time slice), so a narrow
// check-then-act window would be hit only by luck; waiting for another
// thread's progress, not for a fixed time, lets the others in however slowly
// the machine gives them the CPU. Sleeping and a relaxed counter add no
// happens-before edge: TSan sees the same races as without the nudge.
constexpr unsigned kNudgeEvery = 4;
constexpr int kNudgeMaxMs = 20;

void nudge() {
  // Alone, there is nobody to let in; holding a lock, the others most likely
  // wait for it, so waiting for them would only burn the limit.
  std::atomic<int>& running = running_threads();
  if (running.load(std::memory_order_relaxed) < 2) return;
  if (sync_internal::holds_a_lock()) return;
  if (thread_rng()() % kNudgeEvery != 0) return;
  // Once every running thread is stepping aside, nobody is left to let in:
  // all stop waiting at once instead of each sitting out the limit.
  std::atomic<int>& aside = stress_state().stepping_aside;
  aside.fetch_add(1, std::memory_order_relaxed);
  const std::uint64_t seen = progress_steps();
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kNudgeMaxMs);
  while (progress_steps() == seen &&
         aside.load(std::memory_order_relaxed) <
             running.load(std::memory_order_relaxed) &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  aside.fetch_sub(1, std::memory_order_relaxed);
}

void stress_hook(const char* what) {
  if (stress_state().jitter.load(std::memory_order_relaxed)) jitter();
  // yield_point() hints come from subjects and scenarios; locks from racelab's
  // lock types. Both are places where another thread may cut in.
  (void)what;
  nudge();
}

}  // namespace

std::atomic<int>& running_threads() { return stress_state().running_threads; }

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
  stress_state().jitter_seed.store(seed, std::memory_order_relaxed);
  stress_state().jitter.store(enabled, std::memory_order_relaxed);
  set_stress_yield_hook(&stress_hook);
}

JitterScope::~JitterScope() { set_stress_yield_hook(nullptr); }

}  // namespace racelab::stress_internal
