// How the command line reports an error: one line on stderr, whatever the
// message holds. Messages can carry line breaks (a child's stderr tail, a
// text that ends in '\n'); a second line, blank or not, would read as
// another error to whoever parses racelab's stderr.
#ifndef RACELAB_TOOLS_ERROR_LINE_H_
#define RACELAB_TOOLS_ERROR_LINE_H_

#include <ostream>
#include <string>
#include <string_view>

namespace racelab {

// `message` on one line: every run of white space (line breaks included)
// becomes one space, and the ends are trimmed.
std::string one_line(std::string_view message);

// Writes "racelab: " + `lead` + one_line(message) and a line break to `err`.
void print_error(std::ostream& err, std::string_view message,
                 std::string_view lead = "");

}  // namespace racelab

#endif  // RACELAB_TOOLS_ERROR_LINE_H_
