// Expectation rows for tests of judging and of the truth table: a buggy row
// that must catch `catches` (and may also see `may_also`), and a fixed row
// that must stay clean.
#ifndef RACELAB_TESTS_EXPECTATION_ROWS_H_
#define RACELAB_TESTS_EXPECTATION_ROWS_H_

#include <utility>
#include <vector>

#include "racelab/expectation.h"

namespace racelab::testing {

inline Expectation buggy(std::vector<FindingKind> catches,
                         std::vector<FindingKind> may_also = {
                             FindingKind::kCrash, FindingKind::kTimeout}) {
  return {"f/buggy",           "s",  {Mode::kStress}, std::move(catches),
          std::move(may_also), "why"};
}

inline Expectation fixed() {
  return {"f/fixed", "s", {Mode::kStress}, {}, {}, "why"};
}

}  // namespace racelab::testing

#endif  // RACELAB_TESTS_EXPECTATION_ROWS_H_
