// TSan suppressions through the kit (CheckOptions::suppressions): a file in
// TSan's format, one suppression a line, each with the reason it is not a
// bug, e.g.
//   race:tbb::internal  # tbbmalloc is not instrumented: reused nodes look racy
// TSan reads its own suppressions only at start-up, so the kit matches them
// itself, with TSan's rules: a pattern matches a frame's function or file
// anywhere unless it starts with '^' (start) or ends with '$' (end), and '*'
// matches any run of characters. A TSan finding is suppressed when a pattern
// of its type matches a frame of any of its stacks: race: covers data races
// and heap-use-after-free reports, deadlock: lock-order inversions. Blank
// lines and lines that start with '#' are comments. See docs/suppressions.md.
#ifndef RACELAB_SUPPRESSIONS_H_
#define RACELAB_SUPPRESSIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"

namespace racelab {

struct Suppression {
  std::string type;     // "race" or "deadlock"
  std::string pattern;  // "tbb::internal"
  std::string reason;   // what follows '#'
  std::string file;     // where it was read
  int line = 0;
};

// Reads a suppressions file. Throws InputError naming the file (and the line)
// when it cannot be read, a line is not "type:pattern  # reason", the type is
// not race or deadlock, or a line carries no reason.
std::vector<Suppression> load_suppressions(const std::string& path);

// TSan's TemplateMatch: `pattern` against `text` ('^', '$', '*' as above).
bool suppression_pattern_matches(std::string_view pattern,
                                 std::string_view text);

// The first suppression that covers TSan finding `f` (oracle tsan), or
// nullptr.
const Suppression* matching_suppression(
    const std::vector<Suppression>& suppressions, const Finding& f);

}  // namespace racelab

#endif  // RACELAB_SUPPRESSIONS_H_
