// The current session; see racelab/internal/session.h.
#include "racelab/internal/session.h"

#include <stdexcept>

#include "racelab/session_state.h"

namespace racelab {
namespace session_internal {
namespace {

// Process-wide on purpose: the state of code that runs outside any Session.
// Never freed, so that a sanitizer callback or a thread that outlives its
// run (an abandoned, deadlocked one) always finds a live object.
State* first_default_state() {
  static State* const state = new State;
  return state;
}

// Taken during static initialization, before any thread the process starts.
// Code that runs outside a session reads it on every call, and a
// function-local static alone would cost an acquire load of its guard there
// (an atomic that TSan instruments and racelab schedules); only a static
// initializer of another file that runs before this one's takes that path.
State* const g_default_state = first_default_state();

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) State*
default_state() {
  return g_default_state != nullptr ? g_default_state : first_default_state();
}

// Process-wide on purpose: which state is current is what every callback
// and subject thread reads to find it.
// Read and written with the atomic builtins, not std::atomic: its members
// are out-of-line functions in an instrumented build, and current() runs
// inside TSan's report callback, where an instrumented call made the runtime
// wait (for its background thread's 100 ms tick) on every report of a fiber.
State* g_current = nullptr;

}  // namespace

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) State&
current() {
  State* state = __atomic_load_n(&g_current, __ATOMIC_ACQUIRE);
  return state != nullptr ? *state : *default_state();
}

}  // namespace session_internal

Session::Session() : state_(std::make_unique<session_internal::State>()) {
  session_internal::State* expected = nullptr;
  if (!__atomic_compare_exchange_n(&session_internal::g_current, &expected,
                                   state_.get(), /*weak=*/false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    throw std::logic_error(
        "racelab: a check is already running in this process (one check at "
        "a time: the controlled scheduler's hooks and the sanitizer "
        "callbacks are process-wide)");
  }
}

Session::~Session() {
  __atomic_store_n(&session_internal::g_current, nullptr, __ATOMIC_RELEASE);
}

bool Session::active() {
  return __atomic_load_n(&session_internal::g_current, __ATOMIC_ACQUIRE) !=
         nullptr;
}

}  // namespace racelab
