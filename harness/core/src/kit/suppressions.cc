// TSan suppressions matched by the kit; see racelab/suppressions.h.
#include "racelab/suppressions.h"

#include <fstream>
#include <string>

#include "racelab/internal/input_error.h"

namespace racelab {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(const std::string& path, int line,
                       const std::string& what) {
  throw InputError("suppressions file " + path + ":" + std::to_string(line) +
                   ": " + what);
}

bool covers(const Suppression& s, const Finding& f) {
  if (s.type == "race") {
    return f.kind == FindingKind::kDataRace ||
           f.kind == FindingKind::kUseAfterFree;
  }
  return s.type == "deadlock" && f.kind == FindingKind::kDeadlock;
}

}  // namespace

std::vector<Suppression> load_suppressions(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw InputError("suppressions file " + path + ": cannot be read");
  }
  std::vector<Suppression> out;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    std::string_view line = trim(text);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t hash = line.find('#');
    const std::string_view body = trim(
        line.substr(0, hash == std::string_view::npos ? line.size() : hash));
    const std::string_view reason = hash == std::string_view::npos
                                        ? std::string_view{}
                                        : trim(line.substr(hash + 1));
    const std::size_t colon = body.find(':');
    if (colon == std::string_view::npos || colon == 0 ||
        trim(body.substr(colon + 1)).empty()) {
      fail(path, number,
           "'" + std::string(line) + "' is not type:pattern (race:pattern)");
    }
    Suppression s;
    s.type = std::string(trim(body.substr(0, colon)));
    s.pattern = std::string(trim(body.substr(colon + 1)));
    if (s.type != "race" && s.type != "deadlock") {
      fail(path, number,
           "type '" + s.type + "' is not one the kit matches (race, deadlock)");
    }
    if (reason.empty()) {
      fail(path, number,
           "'" + std::string(body) +
               "' has no reason: say why after '#' (race:tbb::internal  # "
               "tbbmalloc is not instrumented: reused nodes look racy)");
    }
    s.reason = std::string(reason);
    s.file = path;
    s.line = number;
    out.push_back(std::move(s));
  }
  return out;
}

bool suppression_pattern_matches(std::string_view pattern,
                                 std::string_view text) {
  if (text.empty()) return false;
  bool start = false;
  if (!pattern.empty() && pattern.front() == '^') {
    start = true;
    pattern.remove_prefix(1);
  }
  bool asterisk = false;
  while (!pattern.empty()) {
    if (pattern.front() == '*') {
      pattern.remove_prefix(1);
      start = false;
      asterisk = true;
      continue;
    }
    if (pattern.front() == '$') return text.empty() || asterisk;
    if (text.empty()) return false;
    const std::size_t stop = pattern.find_first_of("*$");
    const std::string_view piece = pattern.substr(0, stop);
    const std::size_t at = text.find(piece);
    if (at == std::string_view::npos) return false;
    if (start && at != 0) return false;
    text.remove_prefix(at + piece.size());
    pattern.remove_prefix(piece.size());
    start = false;
    asterisk = false;
  }
  return true;
}

const Suppression* matching_suppression(
    const std::vector<Suppression>& suppressions, const Finding& f) {
  if (f.oracle != Oracle::kTsan) return nullptr;
  for (const Suppression& s : suppressions) {
    if (!covers(s, f)) continue;
    for (const Access& a : f.accesses) {
      for (const Frame& frame : a.stack) {
        if (suppression_pattern_matches(s.pattern, frame.function) ||
            suppression_pattern_matches(s.pattern, frame.file)) {
          return &s;
        }
      }
    }
  }
  return nullptr;
}

}  // namespace racelab
