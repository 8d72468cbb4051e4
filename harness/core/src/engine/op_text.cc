// Parsing and joining operation text.
#include "racelab/internal/op_text.h"

namespace racelab {

bool is_plain_argument(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == ',' || c == '(' || c == ')' || c == ';' || c == ' ' || c < 0x21 ||
        c > 0x7e) {
      return false;
    }
  }
  return true;
}

std::optional<OpText> parse_op_text(std::string_view text) {
  const size_t open = text.find('(');
  if (open == std::string_view::npos || open == 0 || text.back() != ')')
    return std::nullopt;
  OpText op{std::string(text.substr(0, open)), {}};
  for (char c : op.name) {
    if (!(c >= 'a' && c <= 'z') && c != '_') return std::nullopt;
  }
  std::string_view inner = text.substr(open + 1, text.size() - open - 2);
  if (inner.empty()) return op;
  size_t start = 0;
  while (true) {
    size_t comma = inner.find(',', start);
    std::string_view arg = inner.substr(start, comma == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : comma - start);
    if (!is_plain_argument(arg)) return std::nullopt;
    op.args.emplace_back(arg);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return op;
}

std::vector<std::string> split_program_line(std::string_view line) {
  std::vector<std::string> ops;
  size_t start = 0;
  while (start < line.size()) {
    size_t sep = line.find("; ", start);
    if (sep == std::string_view::npos) sep = line.size();
    ops.emplace_back(line.substr(start, sep - start));
    start = sep + 2;
  }
  return ops;
}

std::string join_program_line(const std::vector<std::string>& ops) {
  std::string line;
  for (const std::string& op : ops) {
    if (!line.empty()) line += "; ";
    line += op;
  }
  return line;
}

}  // namespace racelab
