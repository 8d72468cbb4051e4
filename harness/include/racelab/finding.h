// What an oracle reports: a finding, its kind, and the vocabulary of verdicts.
#ifndef RACELAB_FINDING_H_
#define RACELAB_FINDING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racelab {

enum class FindingKind {
  kDataRace,
  kUseAfterFree,
  kNotLinearizable,
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

// One frame of a stack, symbolized.
struct Frame {
  std::string function;
  std::string file;  // repo-relative where the file is inside the repo
  int line = 0;
};

// One side of a race: who accessed what.
struct Access {
  std::string what;  // "write of size 8"
  int thread = -1;
  std::vector<Frame> stack;
};

struct Finding {
  FindingKind kind;
  std::string oracle;   // tsan, asan, invariant, linearizability, deadlock,
                        // crash, timeout
  std::string summary;  // one line
  std::string detail;   // free text for humans (a report, an explanation)
  std::optional<Frame> subject_frame;  // first frame inside subject code
  std::vector<Access> accesses;        // the racing accesses, when known
};

}  // namespace racelab

#endif  // RACELAB_FINDING_H_
