// Reading and writing saved schedules (format described in schedule_file.h).
#include "racelab/internal/sched/schedule_file.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>

namespace racelab::sched {
namespace {

constexpr std::string_view kMagic = "racelab-schedule";
constexpr std::string_view kRequiredKeys[] = {"subject", "scenario", "mode",
                                              "strategy", "seed"};
// Not header keys: the section words, and (version 2) the setup and finale
// lines.
constexpr std::string_view kReservedWords[] = {"program", "decisions", "end",
                                               "setup", "finale"};
constexpr std::size_t kDecisionsPerLine = 32;

bool is_key(std::string_view key) {
  if (key.empty() || key.size() > 64) return false;
  if (key.front() < 'a' || key.front() > 'z') return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

bool is_reserved(std::string_view word) {
  return std::find(std::begin(kReservedWords), std::end(kReservedWords),
                   word) != std::end(kReservedWords);
}

bool is_printable_value(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
  });
}

// The offset of the first byte that is not part of a well-formed UTF-8
// sequence (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF), or nullopt when all of `text` is UTF-8. Program lines and values
// travel to the run as JSON strings, which must be UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) {
    return static_cast<unsigned char>(text[i]);
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char lead = byte(i);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;   // overlong
      if (lead == 0xED) high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;   // overlong
      if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    if (byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k) {
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    }
    i += length;
  }
  return std::nullopt;
}

// " (byte 0xff at column 12)": where `text` stops being UTF-8.
std::string describe_invalid_utf8(std::string_view text, std::size_t at) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(text[at]);
  return std::string(" (byte 0x") + kHex[b >> 4] + kHex[b & 0xF] +
         " at column " + std::to_string(at + 1) + ")";
}

// A decimal without sign or leading '+'; nullopt when not one or too large.
template <class Integer>
std::optional<Integer> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  if (!std::all_of(text.begin(), text.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  Integer value{};
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// Shows a piece of the input in an error message: printable ASCII, short
// (the message may end up in JSON, which needs UTF-8).
std::string excerpt(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) {
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 || b >= 0x7F) ? '?' : c;
  }
  if (text.size() > 40) out += "...";
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source,
         ScheduleFileLines* lines)
      : text_(text), source_(source), lines_(lines) {}

  ScheduleFile parse();

 private:
  // The next line without its '\n'; nullopt at the end of the text.
  std::optional<std::string_view> next_line() {
    if (position_ >= text_.size()) return std::nullopt;
    const std::size_t end = text_.find('\n', position_);
    std::string_view line;
    if (end == std::string_view::npos) {
      line = text_.substr(position_);
      position_ = text_.size();
    } else {
      line = text_.substr(position_, end - position_);
      position_ = end + 1;
    }
    ++line_number_;
    if (!line.empty() && line.back() == '\r') {
      fail(
          "carriage return at the end of the line (CRLF line endings are "
          "not supported)");
    }
    return line;
  }

  // The text of a setup or finale line, whose first word is `word`:
  // everything after "<word> " (empty when the line is the word alone),
  // checked as program lines are.
  std::string verbatim_rest(std::string_view line, std::string_view word) {
    std::string_view rest = line.substr(word.size());
    if (!rest.empty()) rest.remove_prefix(1);  // the space after the word
    if (rest.find('\r') != std::string_view::npos) {
      fail("carriage return in the " + std::string(word) + " line");
    }
    if (std::optional<std::size_t> bad = first_invalid_utf8(rest)) {
      fail("the " + std::string(word) + " line is not valid UTF-8" +
           describe_invalid_utf8(line, word.size() + 1 + *bad));
    }
    return std::string(rest);
  }

  [[noreturn]] void fail(const std::string& what) const {
    fail_at(line_number_, what);
  }
  [[noreturn]] void fail_at(int line, const std::string& what) const {
    throw ScheduleFileError(std::string(source_) + ":" + std::to_string(line) +
                            ": " + what);
  }

  std::string_view text_;
  std::string_view source_;
  ScheduleFileLines* lines_;  // may be null
  std::size_t position_ = 0;
  int line_number_ = 0;
};

ScheduleFile Parser::parse() {
  ScheduleFile file;
  if (text_.size() > ScheduleFile::kMaxBytes) {
    throw ScheduleFileError(std::string(source_) +
                            ": schedule file larger than the 4 MiB limit");
  }
  if (text_.empty()) fail_at(1, "empty file (expected 'racelab-schedule 2')");

  // Magic and version.
  const std::string_view magic = *next_line();
  const std::size_t space = magic.find(' ');
  if (magic.substr(0, space) != kMagic) {
    fail("not a racelab schedule: expected 'racelab-schedule 2', found '" +
         excerpt(magic) + "'");
  }
  const std::string_view version = space == std::string_view::npos
                                       ? std::string_view()
                                       : magic.substr(space + 1);
  if (version != "1" && version != "2") {
    fail("unsupported version '" + excerpt(version) +
         "' (this build reads versions 1 and 2)");
  }
  const bool v1 = version == "1";

  // Header.
  std::vector<int> key_lines;
  std::vector<std::string> keys;
  std::optional<std::string_view> line;
  std::string_view program_count_text;
  int setup_line = 0, finale_line = 0;
  for (;;) {
    line = next_line();
    if (!line) fail("truncated: the file ends before the 'program' section");
    const std::size_t separator = line->find(' ');
    const std::string_view key = line->substr(0, separator);
    if (!v1 && key == "setup") {
      file.setup = verbatim_rest(*line, "setup");
      setup_line = line_number_;
      line = next_line();
      if (!line || line->substr(0, line->find(' ')) != "program") {
        fail("expected 'program <threads>' after the 'setup' line");
      }
      const std::size_t space = line->find(' ');
      program_count_text = space == std::string_view::npos
                               ? std::string_view()
                               : line->substr(space + 1);
      break;
    }
    if (key == "program") {
      if (!v1) fail("'program' before the 'setup' line");
      program_count_text = separator == std::string_view::npos
                               ? std::string_view()
                               : line->substr(separator + 1);
      break;
    }
    if (key == "decisions" || key == "end") {
      fail("'" + std::string(key) + "' before the 'program' section");
    }
    if (!v1 && key == "finale") fail("'finale' before the 'program' section");
    if (line->empty()) fail("empty line in the header");
    if (!is_key(key)) {
      fail("bad header line '" + excerpt(*line) +
           "' (expected 'key value', key in [a-z][a-z0-9_.-]*)");
    }
    if (separator == std::string_view::npos || separator + 1 == line->size()) {
      fail("key '" + std::string(key) + "' has no value");
    }
    const std::string_view value = line->substr(separator + 1);
    if (!is_printable_value(value)) {
      fail("value of '" + std::string(key) + "' has a control character");
    }
    if (std::optional<std::size_t> bad = first_invalid_utf8(value)) {
      fail("value of '" + std::string(key) + "' is not valid UTF-8" +
           describe_invalid_utf8(*line, separator + 1 + *bad));
    }
    auto seen = std::find(keys.begin(), keys.end(), key);
    if (seen != keys.end()) {
      fail("duplicate key '" + std::string(key) + "' (first at line " +
           std::to_string(
               key_lines[static_cast<std::size_t>(seen - keys.begin())]) +
           ")");
    }
    keys.emplace_back(key);
    key_lines.push_back(line_number_);
    if (key == "subject") {
      file.subject = value;
    } else if (key == "scenario") {
      file.scenario = value;
    } else if (key == "mode") {
      file.mode = value;
    } else if (key == "strategy") {
      file.strategy = value;
    } else if (key == "seed") {
      std::optional<std::uint64_t> seed = parse_decimal<std::uint64_t>(value);
      if (!seed) {
        fail("seed '" + excerpt(value) +
             "' is not an unsigned 64-bit decimal number");
      }
      file.seed = *seed;
    } else if (v1 && (key == "setup" || key == "finale")) {
      // Version 1 kept them as header keys, "-" for none.
      std::string& target = key == "setup" ? file.setup : file.finale;
      target = value == "-" ? std::string() : std::string(value);
      (key == "setup" ? setup_line : finale_line) = line_number_;
    } else {
      if (key == "memory_model" && value != "on") {
        fail("'memory_model' is not 'on'");
      }
      file.extra.emplace_back(key, value);
    }
  }
  const bool memory_model = file.memory_model();
  for (std::string_view required : kRequiredKeys) {
    if (std::find(keys.begin(), keys.end(), required) == keys.end()) {
      fail("missing required key '" + std::string(required) +
           "' before 'program'");
    }
  }

  // Program.
  std::optional<int> thread_count = parse_decimal<int>(program_count_text);
  if (!thread_count || *thread_count < 1 ||
      *thread_count > ScheduleFile::kMaxThreads) {
    fail("'program' needs a thread count from 1 to " +
         std::to_string(ScheduleFile::kMaxThreads) + ", found '" +
         excerpt(program_count_text) + "'");
  }
  const int program_line = line_number_;
  for (int t = 0; t < *thread_count; ++t) {
    line = next_line();
    if (!line) {
      fail_at(program_line,
              "truncated: 'program " + std::to_string(*thread_count) +
                  "' but the file ends after " + std::to_string(t) +
                  " program line" + (t == 1 ? "" : "s"));
    }
    if (line->find('\r') != std::string_view::npos) {
      fail("carriage return in program line " + std::to_string(t));
    }
    if (std::optional<std::size_t> bad = first_invalid_utf8(*line)) {
      fail("program line " + std::to_string(t) + " is not valid UTF-8" +
           describe_invalid_utf8(*line, *bad));
    }
    file.program.emplace_back(*line);
  }

  if (!v1) {
    line = next_line();
    if (!line || line->substr(0, line->find(' ')) != "finale") {
      fail("expected the 'finale' line after the " +
           std::to_string(*thread_count) + " program lines" +
           (line ? ", found '" + excerpt(*line) + "'" : std::string()));
    }
    file.finale = verbatim_rest(*line, "finale");
    finale_line = line_number_;
  }

  // Decisions.
  line = next_line();
  if (!line) fail("truncated: the file ends before 'decisions'");
  if (line->substr(0, line->find(' ')) != "decisions") {
    fail("expected 'decisions <count>' after the " +
         (v1 ? std::to_string(*thread_count) + " program lines"
             : std::string("'finale' line")) +
         ", found '" + excerpt(*line) + "'");
  }
  const std::size_t count_start = line->find(' ');
  const std::string_view count_text = count_start == std::string_view::npos
                                          ? std::string_view()
                                          : line->substr(count_start + 1);
  std::optional<std::size_t> declared = parse_decimal<std::size_t>(count_text);
  if (!declared || *declared > text_.size()) {
    // Each decision takes at least two bytes, so a larger count cannot match.
    fail("'decisions' needs a count, found '" + excerpt(count_text) + "'");
  }
  const int decisions_line = line_number_;
  file.decisions.reserve(*declared);
  for (;;) {
    line = next_line();
    if (!line) {
      fail("truncated: missing 'end' (" +
           std::to_string(file.decisions.size()) + " of " +
           std::to_string(*declared) + " decisions read)");
    }
    if (*line == "end") break;
    if (line->empty()) fail("empty line among the decisions");
    std::string_view rest = *line;
    while (!rest.empty()) {
      const std::size_t start = rest.find_first_not_of(" \t");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const std::size_t end = rest.find_first_of(" \t");
      const std::string_view token = rest.substr(0, end);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
      if (!token.empty() && token.front() == '-' &&
          parse_decimal<std::uint64_t>(token.substr(1))) {
        fail("negative decision '" + excerpt(token) + "'");
      }
      std::optional<std::uint64_t> decision =
          parse_decimal<std::uint64_t>(token);
      if (!decision) fail("decision '" + excerpt(token) + "' is not a number");
      if (*decision >=
          static_cast<std::uint64_t>(
              memory_model
                  ? std::max(*thread_count, ScheduleFile::kMaxStoreChoices)
                  : *thread_count)) {
        fail("decision " + std::to_string(*decision) +
             " names a thread that does not exist (the program has " +
             std::to_string(*thread_count) + " thread" +
             (*thread_count == 1 ? "" : "s") + ")");
      }
      if (file.decisions.size() == *declared) {
        fail_at(line_number_, "decision count mismatch: more than the " +
                                  std::to_string(*declared) +
                                  " declared at line " +
                                  std::to_string(decisions_line));
      }
      file.decisions.push_back(static_cast<int>(*decision));
    }
  }
  if (file.decisions.size() != *declared) {
    fail("decision count mismatch: 'decisions " + std::to_string(*declared) +
         "' at line " + std::to_string(decisions_line) + " but " +
         std::to_string(file.decisions.size()) + " found before 'end'");
  }

  // Only the final newline may follow 'end'.
  if (position_ < text_.size()) {
    ++line_number_;
    fail("trailing garbage after 'end'");
  }
  if (lines_ != nullptr) {
    lines_->keys.clear();
    for (std::size_t i = 0; i < keys.size(); ++i)
      lines_->keys.emplace_back(keys[i], key_lines[i]);
    lines_->program = program_line + 1;
    lines_->setup = setup_line;
    lines_->finale = finale_line;
    lines_->version = v1 ? 1 : 2;
  }
  return file;
}

void check_value(std::string_view key, std::string_view value) {
  if (value.empty()) {
    throw std::invalid_argument("schedule file: '" + std::string(key) +
                                "' has an empty value");
  }
  if (!is_printable_value(value)) {
    throw std::invalid_argument("schedule file: the value of '" +
                                std::string(key) +
                                "' has a newline or control character");
  }
  if (first_invalid_utf8(value)) {
    throw std::invalid_argument("schedule file: the value of '" +
                                std::string(key) + "' is not valid UTF-8");
  }
}

}  // namespace

std::string write_schedule(const ScheduleFile& file) {
  check_value("subject", file.subject);
  check_value("scenario", file.scenario);
  check_value("mode", file.mode);
  check_value("strategy", file.strategy);
  std::vector<std::string_view> keys(std::begin(kRequiredKeys),
                                     std::end(kRequiredKeys));
  for (const auto& [key, value] : file.extra) {
    if (!is_key(key) || is_reserved(key)) {
      throw std::invalid_argument("schedule file: bad extra key '" + key + "'");
    }
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
      throw std::invalid_argument("schedule file: duplicate key '" + key + "'");
    }
    keys.push_back(key);
    check_value(key, value);
  }
  if (file.program.empty() ||
      file.program.size() >
          static_cast<std::size_t>(ScheduleFile::kMaxThreads)) {
    throw std::invalid_argument("schedule file: the program needs 1 to " +
                                std::to_string(ScheduleFile::kMaxThreads) +
                                " threads");
  }
  std::vector<std::string_view> lines = {file.setup, file.finale};
  lines.insert(lines.end(), file.program.begin(), file.program.end());
  for (std::string_view line : lines) {
    if (line.find_first_of("\r\n") != std::string::npos) {
      throw std::invalid_argument(
          "schedule file: a program line contains a newline");
    }
    if (first_invalid_utf8(line)) {
      throw std::invalid_argument(
          "schedule file: a program line is not valid UTF-8");
    }
  }
  const int threads = static_cast<int>(file.program.size());
  for (int decision : file.decisions) {
    if (decision < 0 || decision >= file.decision_bound()) {
      throw std::invalid_argument("schedule file: decision " +
                                  std::to_string(decision) +
                                  " names no thread of the program");
    }
  }

  std::string out =
      std::string(kMagic) + " " + std::to_string(ScheduleFile::kVersion) + "\n";
  out += "subject " + file.subject + "\n";
  out += "scenario " + file.scenario + "\n";
  out += "mode " + file.mode + "\n";
  out += "strategy " + file.strategy + "\n";
  out += "seed " + std::to_string(file.seed) + "\n";
  for (const auto& [key, value] : file.extra) out += key + " " + value + "\n";
  out += file.setup.empty() ? "setup\n" : "setup " + file.setup + "\n";
  out += "program " + std::to_string(threads) + "\n";
  for (const std::string& line : file.program) out += line + "\n";
  out += file.finale.empty() ? "finale\n" : "finale " + file.finale + "\n";
  out += "decisions " + std::to_string(file.decisions.size()) + "\n";
  for (std::size_t i = 0; i < file.decisions.size(); ++i) {
    out += std::to_string(file.decisions[i]);
    const bool line_end =
        (i + 1) % kDecisionsPerLine == 0 || i + 1 == file.decisions.size();
    out += line_end ? '\n' : ' ';
  }
  out += "end\n";
  if (out.size() > ScheduleFile::kMaxBytes) {
    throw std::invalid_argument(
        "schedule file: larger than the 4 MiB limit of the format");
  }
  return out;
}

bool ScheduleFile::memory_model() const {
  for (const auto& [key, value] : extra) {
    if (key == "memory_model") return value == "on";
  }
  return false;
}

int ScheduleFile::decision_bound() const {
  const int threads = static_cast<int>(program.size());
  return memory_model() ? std::max(threads, kMaxStoreChoices) : threads;
}

std::vector<std::string> ScheduleFile::program_lines() const {
  std::vector<std::string> lines = {setup};
  lines.insert(lines.end(), program.begin(), program.end());
  lines.push_back(finale);
  return lines;
}

void ScheduleFile::set_program_lines(const std::vector<std::string>& lines) {
  if (lines.size() < 3) {
    throw std::invalid_argument(
        "schedule file: a program needs a setup line, one thread and a "
        "finale line");
  }
  setup = lines.front();
  program.assign(lines.begin() + 1, lines.end() - 1);
  finale = lines.back();
}

int ScheduleFileLines::of_key(std::string_view key) const {
  for (const auto& [k, line] : keys) {
    if (k == key) return line;
  }
  return 0;
}

ScheduleFile parse_schedule(std::string_view text, std::string_view source_name,
                            ScheduleFileLines* lines) {
  return Parser(text, source_name, lines).parse();
}

}  // namespace racelab::sched
