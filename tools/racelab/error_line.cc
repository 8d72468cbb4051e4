// Errors as one line on stderr; see error_line.h.
#include "racelab/error_line.h"

namespace racelab {

std::string one_line(std::string_view message) {
  std::string line;
  line.reserve(message.size());
  bool space = false;
  for (char c : message) {
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
                       c == '\v' || c == '\f';
    if (blank) {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
  }
  return line;
}

void print_error(std::ostream& err, std::string_view message,
                 std::string_view lead) {
  err << "racelab: " << lead << one_line(message) << "\n";
}

}  // namespace racelab
