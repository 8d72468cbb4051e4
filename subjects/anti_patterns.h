// The anti-patterns of the subject catalog, as the demo tells them: which
// buggy subject shows each, which subject fixes it, the scenario that breaks
// it, and the texts. Plain data.
#ifndef RACELAB_SUBJECTS_ANTI_PATTERNS_H_
#define RACELAB_SUBJECTS_ANTI_PATTERNS_H_

#include <vector>

namespace racelab {

struct AntiPatternText {
  const char* name;   // "check-then-act" (docs/anti-patterns/<name>.md)
  const char* buggy;  // subject
  const char* fixed;  // subject
  const char* scenario;
  const char* marker;   // the excerpt centres on the first line with this
  const char* summary;  // one line, for the list
  const char* story;    // what goes wrong
  const char* oracles;  // which oracle sees it, and why the others do not
};

const std::vector<AntiPatternText>& anti_pattern_texts();

}  // namespace racelab

#endif  // RACELAB_SUBJECTS_ANTI_PATTERNS_H_
