// The expectation table: for every subject x scenario, the verdict a run must
// produce, in both directions (a buggy subject must be caught, a fixed one must
// stay clean), with the reason. Plain data beside the subjects; the harness
// validates it against the catalog and enforces it in the gate.
#ifndef RACELAB_SUBJECTS_EXPECTATIONS_H_
#define RACELAB_SUBJECTS_EXPECTATIONS_H_

#include <vector>

namespace racelab {

struct ExpectationRow {
  const char* subject;  // family/variant
  const char* scenario;
  const char* modes;  // comma-separated: stress, controlled
  // Empty: clean. Else comma-separated finding kinds, at least one of which a
  // run must produce.
  const char* catches;
  // Comma-separated kinds a run may show as further consequences of the bug.
  const char* may_also;
  const char* why;
};

const std::vector<ExpectationRow>& expectation_table();

}  // namespace racelab

#endif  // RACELAB_SUBJECTS_EXPECTATIONS_H_
