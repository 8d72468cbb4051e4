// The text form of an operation, "name(arg,arg)", as programs are written in
// schedule files; and of a program thread, operations joined by "; ".
#ifndef RACELAB_OP_TEXT_H_
#define RACELAB_OP_TEXT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racelab {

struct OpText {
  std::string name;
  std::vector<std::string> args;
};

// Parses "name(a,b)" ("name()" has no arguments). nullopt when malformed.
std::optional<OpText> parse_op_text(std::string_view text);

// Splits a program line at "; " (an empty line is an empty list).
std::vector<std::string> split_program_line(std::string_view line);
std::string join_program_line(const std::vector<std::string>& ops);

// True when `s` can be an argument: non-empty, no ',', '(', ')', ';' or space.
bool is_plain_argument(std::string_view s);

}  // namespace racelab

#endif  // RACELAB_OP_TEXT_H_
