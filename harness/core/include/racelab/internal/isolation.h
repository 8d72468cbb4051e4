// Running code under test in a forked child, so that the caller survives
// whatever it does (a signal, abort, std::terminate, exit, a hang) and still
// learns which schedule was in flight. racelab::explore and the kit's
// check_store / replay_store run their searches through it.
//
// The child shares a memory channel with the parent: controlled-mode code
// in the child announces each schedule it starts (begin_schedule: its index
// and encoded program) and, through a scheduler's switch observer
// (observe_decisions), every decision as it is made; the child's result goes
// back as text once the body returns. The parent watches for progress: the
// decisions and, with watch_progress, racelab's progress counter
// (progress.h), which a thread of the child copies into the channel. No
// progress of either for hang_seconds is a hang, whatever the elapsed time;
// the child's process group is then killed.
#ifndef RACELAB_ISOLATION_H_
#define RACELAB_ISOLATION_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/case.h"
#include "racelab/internal/sched/scheduler.h"

namespace racelab::isolation {

struct ChildOptions {
  int hang_seconds = 60;
  // Count racelab's progress counter as progress too (stress mode, and
  // controlled-mode phases without decisions: the oracles' checks).
  bool watch_progress = false;
  // Who forks, for error messages: "racelab::explore".
  std::string what = "racelab";
};

// How the child ended.
enum class ChildEnd {
  kResult,    // the body returned; `result` holds its text
  kSignal,    // killed by `signal`
  kExited,    // called exit/_exit (status `status`) before the body returned
  kNoResult,  // exited with status 0 but reported nothing
  kHang,      // no progress for hang_seconds; its process group was killed
};

struct ChildOutcome {
  ChildEnd end = ChildEnd::kResult;
  int signal = 0;
  int status = 0;
  std::string result;
  // The schedule in flight when the child ended (-1: none begun), its
  // program lines as announced (empty when none were) and its decisions so
  // far.
  int schedule = -1;
  std::vector<std::string> program;
  std::vector<int> decisions;
  // The schedule in flight made more decisions than the channel holds
  // (2^20): `decisions` is only its beginning and replays something else.
  bool decisions_cut = false;
  std::string child_stderr;
  // A hung child of a stress run (ChildOptions::watch_progress): what its
  // OS threads waited for and held when it was stopped, one line per thread
  // (stress mode's table of lock waits, scheduling_hooks.h); a cycle of
  // threads each waiting for a lock the next holds is named first. Empty
  // when no thread of the run waited on or held an interposed lock.
  std::string lock_waits;

  // One line on how a child that returned no result ended ("the store was
  // killed by SIGSEGV (...)"); `subject` names the code under test.
  std::string summary(const std::string& subject, int hang_seconds) const;
};

// Forks; the child runs `body` (stderr captured) and reports what it
// returns, then ends without exit-time work (no atexit handlers, no TSan
// exit status). Throws std::runtime_error when the child cannot be started.
ChildOutcome run_in_child(const std::function<std::string()>& body,
                          const ChildOptions& options);

// True in the child of run_in_child.
bool in_child();
// In the child: a new schedule starts (its decisions so far are forgotten).
// `program` may be null (a plain body, no encoded program). `index` < 0
// numbers it after the last one.
void begin_schedule(int index, const std::vector<std::string>* program);
// In the child: records every decision of `scheduler` in the channel.
// Outside a child it does nothing.
void observe_decisions(sched::ControlledScheduler& scheduler);

}  // namespace racelab::isolation

#endif  // RACELAB_ISOLATION_H_
