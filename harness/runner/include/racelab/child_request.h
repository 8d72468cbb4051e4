// The request a case run's child process receives: which case, which run and
// how to run it, as one versioned JSON document that the parent writes to a
// sealed in-memory file on descriptor kChildRequestFd. The child's command
// line is only the hidden command (`racelab __child`); everything else is
// here, written in one place (write_child_request) and read in one place
// (parse_child_request).
#ifndef RACELAB_HARNESS_SRC_CHILD_REQUEST_H_
#define RACELAB_HARNESS_SRC_CHILD_REQUEST_H_

#include <string>
#include <string_view>

#include "racelab/internal/case.h"
#include "racelab/registry.h"

namespace racelab {

// The descriptor a child reads its request from.
inline constexpr int kChildRequestFd = 4;

struct ChildRequest {
  // Bumped when a field changes meaning; a child refuses other versions.
  static constexpr int kVersion = 1;

  std::string subject;
  std::string scenario;
  // Mode, the case's seed, the run's index, stress and controlled settings and
  // the oracles. The child derives the run's own seed from seed and
  // run_index; the replay fields are filled from replay_schedule.
  RunRequest run;
  // How many runs this child makes, one after the other: run_index,
  // run_index + 1, ... Each reports its own result line; the start-up of the
  // process is paid once.
  int runs = 1;
  // How long the run may make no progress before it counts as hung.
  int run_timeout_ms = 5000;
  // Controlled mode: the text of a schedule file to replay (the parent has
  // read and checked it), or empty.
  std::string replay_schedule;
};

// The request as one line of JSON (with "version").
std::string write_child_request(const ChildRequest& request);

// The inverse. Throws InputError (runner.h) with one line naming what is
// wrong: not JSON, another version, a missing or mistyped field, an unknown
// mode or oracle.
ChildRequest parse_child_request(std::string_view text);

// The line a child writes to its stderr as run `run` starts, so that the
// parent can tell each run's log from the next one's.
std::string run_log_marker(int run);

// A sealed in-memory file holding the request, close-on-exec, on a descriptor
// above those a child's are set up on. Throws std::runtime_error when the
// system refuses.
int child_request_memfd(const ChildRequest& request);

// Reads the whole of `fd` (from its start) and parses it; throws InputError.
ChildRequest read_child_request(int fd);

// The child side: runs the request's runs of its case and reports each on
// file descriptor 3. Returns the process exit status.
int child_main(const Registry& registry, const ChildRequest& request);

}  // namespace racelab

#endif  // RACELAB_HARNESS_SRC_CHILD_REQUEST_H_
