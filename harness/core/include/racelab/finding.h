// What an oracle reports: a finding, its kind, and the vocabulary of verdicts.
#ifndef RACELAB_FINDING_H_
#define RACELAB_FINDING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/oracle.h"

namespace racelab {

enum class FindingKind {
  kDataRace,
  kUseAfterFree,
  kNotLinearizable,
  kInvariantViolation,  // a scenario's own check over the finished run failed
  kDeadlock,
  kConcurrentMapWrite,
  kMapIterationDuringWrite,
  kCrash,
  kTimeout,
};

// The snake_case name used in the CLI, expectations and reports.
const char* to_string(FindingKind kind);
std::optional<FindingKind> parse_finding_kind(std::string_view name);
const std::vector<FindingKind>& all_finding_kinds();

// Whose code a frame runs: the store's own (subjects, examples, a user's
// files), the standard library or a runtime (system headers and libraries,
// frames without a file), or racelab's engine and catalog drivers
// (harness/, scenarios/, tools/, fuzz/, installed racelab headers). Reports
// show the store's frames and fold the others.
enum class FrameOrigin { kUser, kLibrary, kRacelab };

// "user", "library", "racelab", as results.json spells them.
const char* to_string(FrameOrigin origin);
std::optional<FrameOrigin> parse_frame_origin(std::string_view name);
// The origin of code in `file` (repo-relative inside racelab's source folder,
// absolute elsewhere; empty when unknown).
FrameOrigin frame_origin_of(std::string_view file);

// One frame of a stack, symbolized.
struct Frame {
  std::string function;  // as demangled, in full
  std::string file;      // repo-relative where the file is inside the repo
  int line = 0;
  FrameOrigin origin = FrameOrigin::kUser;  // set by the symbolizer
};

// One side of a race: who accessed what.
struct Access {
  std::string what;  // "write of size 8"
  int thread = -1;   // the logical thread (the kit's and the trace's number)
  std::vector<Frame> stack;
  // ThreadSanitizer's own number of the thread (its report's "T3"), -1 when
  // not from TSan.
  int tsan_tid = -1;
};

struct Finding {
  FindingKind kind;
  Oracle oracle;        // who reported it
  std::string summary;  // one line
  std::string detail;   // free text for humans (a report, an explanation)
  std::optional<Frame> subject_frame;  // first frame inside subject code
  std::vector<Access> accesses;        // the racing accesses, when known
};

// The finding of a scenario's own check over a finished run (a commit lost,
// a key yielded twice): kind invariant_violation, oracle invariants.
Finding invariant_violation(std::string summary);

}  // namespace racelab

#endif  // RACELAB_FINDING_H_
