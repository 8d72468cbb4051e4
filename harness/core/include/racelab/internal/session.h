// The session of one check or case run: the state that a run changes and
// that the next run must not see (the sanitizer reports captured so far, the
// GoMap fault log, the stress runner's thread count and jitter, the
// controlled runner's clock). The engine creates one Session per check or run
// (the kit's check_store and replay_store, a case run's child process); it is
// the current session while it lives and its state is gone with it, so two
// checks in one process, one after the other, each start from nothing.
//
// One session at a time per process: creating a second while one is current
// (a nested or concurrent check) throws std::logic_error, since the
// controlled scheduler's hooks and the sanitizer callbacks are process-wide.
// Code that runs outside any session (a unit test calling a runner directly,
// a fuzz target's inputs) uses the process's own default session.
#ifndef RACELAB_SESSION_H_
#define RACELAB_SESSION_H_

#include <memory>

namespace racelab {

namespace session_internal {
struct State;  // harness/core/internal/racelab/session_state.h
}  // namespace session_internal

class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Whether a Session (other than the process default) is current.
  static bool active();

 private:
  std::unique_ptr<session_internal::State> state_;
};

}  // namespace racelab

#endif  // RACELAB_SESSION_H_
