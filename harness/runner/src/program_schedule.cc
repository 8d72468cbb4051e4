// The schedule file of a whole program; see program_schedule.h.
#include "racelab/program_schedule.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>

#include "absl/strings/str_cat.h"
#include "racelab/internal/input_error.h"
#include "racelab/saved_schedule.h"

namespace racelab {
namespace {

constexpr char kHex[] = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A whole number in [low, high], plain decimal digits only.
std::optional<std::int64_t> whole_number(std::string_view text,
                                         std::int64_t low, std::int64_t high) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  if (value < low || value > high) return std::nullopt;
  return value;
}

}  // namespace

std::string quote_argument(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (byte < 0x20 || byte >= 0x7f) {
          out += "\\x";
          out += kHex[byte >> 4];
          out += kHex[byte & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::optional<std::string> unquote_argument(std::string_view value) {
  if (value.size() < 2 || value.front() != '"' || value.back() != '"')
    return std::nullopt;
  value = value.substr(1, value.size() - 2);
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '"') return std::nullopt;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == value.size()) return std::nullopt;
    switch (value[i]) {
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'x': {
        if (i + 2 >= value.size()) return std::nullopt;
        const int high = hex_value(value[i + 1]);
        const int low = hex_value(value[i + 2]);
        if (high < 0 || low < 0) return std::nullopt;
        out += static_cast<char>(high * 16 + low);
        i += 2;
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return out;
}

std::string program_schedule_text(const ProgramExploreOptions& options,
                                  const std::vector<int>& decisions) {
  sched::ScheduleFile file =
      program_schedule_file(quote_argument(options.command.front()),
                            options.strategy, options.seed, decisions);
  file.extra.emplace_back("argc", absl::StrCat(options.command.size()));
  for (std::size_t i = 0; i < options.command.size(); ++i) {
    file.extra.emplace_back(absl::StrCat("arg.", i),
                            quote_argument(options.command[i]));
  }
  file.extra.emplace_back("max_steps", absl::StrCat(options.max_steps));
  file.extra.emplace_back("spin_bound", absl::StrCat(options.spin_bound));
  if (options.memory_model) file.extra.emplace_back("memory_model", "on");
  file.extra.emplace_back("hang_seconds", absl::StrCat(options.hang_seconds));
  if (options.strategy == "pct")
    file.extra.emplace_back("depth", absl::StrCat(options.depth));
  if (options.strategy == "dfs" || options.strategy == "plain-dfs")
    file.extra.emplace_back("preemptions",
                            options.preemptions < 0
                                ? std::string("none")
                                : absl::StrCat(options.preemptions));
  return sched::write_schedule(file);
}

void program_schedule_options(const std::string& path,
                              const sched::ScheduleFile& file,
                              ProgramExploreOptions& options) {
  auto fail = [&](const std::string& what) {
    throw InputError(absl::StrCat(path, ": ", what));
  };
  if (file.mode != kProgramScheduleMode) {
    fail(absl::StrCat("mode is '", file.mode, "', not 'program'"));
  }
  const std::optional<sched::StrategyKind> kind =
      sched::strategy_kind(file.strategy);
  if (!kind || *kind == sched::StrategyKind::kReplay) {
    fail(absl::StrCat("strategy '", file.strategy,
                      "' is not one of explore's (pct, random, dfs, "
                      "plain-dfs)"));
  }
  std::map<std::string, std::string> keys(file.extra.begin(), file.extra.end());
  auto number = [&](const char* key, std::int64_t low, std::int64_t high,
                    auto& into) {
    auto found = keys.find(key);
    if (found == keys.end()) return;
    std::optional<std::int64_t> value = whole_number(found->second, low, high);
    if (!value) {
      fail(absl::StrCat("'", key, "' is not a whole number from ", low, " to ",
                        high));
    }
    into = static_cast<std::remove_reference_t<decltype(into)>>(*value);
    keys.erase(found);
  };
  options.command.clear();
  auto argc_key = keys.find("argc");
  if (argc_key == keys.end()) {
    fail(
        "no 'argc' key: the file was written by an older racelab, whose "
        "files do not keep every argument exactly; explore the program "
        "again to save its schedule");
  }
  std::optional<std::int64_t> argc = whole_number(argc_key->second, 1, 4096);
  if (!argc) fail("'argc' is not a whole number from 1 to 4096");
  keys.erase(argc_key);
  for (std::int64_t i = 0; i < *argc; ++i) {
    const std::string key = absl::StrCat("arg.", i);
    auto found = keys.find(key);
    if (found == keys.end())
      fail(absl::StrCat("no '", key, "' key (argc is ", *argc, ")"));
    std::optional<std::string> arg = unquote_argument(found->second);
    if (!arg) {
      fail(absl::StrCat("'", key,
                        "' is not a quoted argument (\"...\" with \\\\ \\\" "
                        "\\n \\t \\r \\xHH escapes)"));
    }
    options.command.push_back(std::move(*arg));
    keys.erase(found);
  }
  if (options.command.front().empty() || options.command.front()[0] != '/') {
    fail("'arg.0' is not an absolute path");
  }
  if (auto mode = keys.find("memory_model"); mode != keys.end()) {
    if (mode->second != "on") fail("'memory_model' is not 'on'");
    options.memory_model = true;
    keys.erase(mode);
  }
  number("max_steps", 1, 100000000, options.max_steps);
  number("spin_bound", 1, 1000000, options.spin_bound);
  number("hang_seconds", 1, 86400, options.hang_seconds);
  number("depth", 1, 100, options.depth);
  if (auto bound = keys.find("preemptions");
      bound != keys.end() && bound->second == "none") {
    options.preemptions = -1;  // unbounded
    keys.erase(bound);
  }
  number("preemptions", 0, 1000, options.preemptions);
  if (!keys.empty()) {
    fail(absl::StrCat("unknown key '", keys.begin()->first, "'"));
  }
  options.strategy = file.strategy;
  options.seed = file.seed;
  options.replay = true;
  options.replay_decisions = file.decisions;
}

}  // namespace racelab
