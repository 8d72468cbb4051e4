// The current session; see racelab/session.h.
#include "racelab/session.h"

#include <stdexcept>

#include "racelab/session_state.h"

namespace racelab {
namespace session_internal {
namespace {

// Process-wide on purpose: the state of code that runs outside any Session.
// Never freed, so that a sanitizer callback or a thread that outlives its
// run (an abandoned, deadlocked one) always finds a live object.
State* default_state() {
  static State* const state = new State;
  return state;
}

// Process-wide on purpose: which state is current is what every callback
// and subject thread reads to find it.
std::atomic<State*> g_current{nullptr};

}  // namespace

__attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation)) State&
current() {
  State* state = g_current.load(std::memory_order_acquire);
  return state != nullptr ? *state : *default_state();
}

}  // namespace session_internal

Session::Session() : state_(std::make_unique<session_internal::State>()) {
  session_internal::State* expected = nullptr;
  if (!session_internal::g_current.compare_exchange_strong(
          expected, state_.get(), std::memory_order_acq_rel)) {
    throw std::logic_error(
        "racelab: a check is already running in this process (one check at "
        "a time: the controlled scheduler's hooks and the sanitizer "
        "callbacks are process-wide)");
  }
}

Session::~Session() {
  session_internal::g_current.store(nullptr, std::memory_order_release);
}

bool Session::active() {
  return session_internal::g_current.load(std::memory_order_acquire) != nullptr;
}

}  // namespace racelab
