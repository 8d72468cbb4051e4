// Expectations: the verdict each case must produce, and how an observed set of
// findings is judged against it. The table itself lives beside the subjects.
#ifndef RACELAB_EXPECTATION_H_
#define RACELAB_EXPECTATION_H_

#include <string>
#include <vector>

#include "racelab/case.h"
#include "racelab/finding.h"

namespace racelab {

struct Expectation {
  std::string subject;
  std::string scenario;
  std::vector<Mode> modes;  // the modes this row applies to
  // Empty: the case must be clean in every run. Otherwise at least one run
  // must end with a finding of one of these kinds.
  std::vector<FindingKind> catches;
  // Further kinds a run of a buggy case may show, as consequences of the same
  // bug (a corrupted map may crash). Any other kind is a mismatch.
  std::vector<FindingKind> may_also;
  std::string why;
};

// The oracles of the truth table, and what an expectation asks of each:
// kMust (every run that catches the bug must show this oracle's kind; it is
// the only oracle named), kOneOf (one of several named oracles must fire),
// kMay (a consequence it may report), kSilent (it must report nothing).
enum class OracleDuty { kMust, kOneOf, kMay, kSilent };
const std::vector<std::string>&
truth_table_oracles();  // tsan, asan, linearizability, ...
OracleDuty duty_of(const Expectation& e, const std::string& oracle);
const char* to_string(OracleDuty duty);

// "clean", or the kinds joined with " or ".
std::string describe_expected(const Expectation& e);

// Judges the kinds observed over all runs of a case. Returns an empty string
// when they meet the expectation, else the reason for the mismatch.
std::string judge(const Expectation& e,
                  const std::vector<FindingKind>& observed);

}  // namespace racelab

#endif  // RACELAB_EXPECTATION_H_
