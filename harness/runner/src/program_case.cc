// A whole program's explored result as one case of the reports
// (`racelab explore --out DIR`): named by the program's base name and
// arguments, with its full path apart, and judged in explore's vocabulary.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/expectation.h"
#include "racelab/program_explorer.h"

namespace racelab {
namespace {

// `word` as a shell reads it back: unchanged when it holds only characters
// no shell treats specially, else in single quotes.
std::string shell_word(const std::string& word) {
  const bool plain =
      !word.empty() && word.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
                           "XYZ0123456789-_.,/:=+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted.push_back(c);
    }
  }
  return quoted + "'";
}

}  // namespace

std::string program_case_name(const std::vector<std::string>& command) {
  if (command.empty()) return "program";
  std::string name = std::filesystem::path(command.front()).filename().string();
  if (name.empty()) name = command.front();
  for (std::size_t i = 1; i < command.size(); ++i)
    absl::StrAppend(&name, " ", shell_word(command[i]));
  return name;
}

CaseResult program_case_result(const ProgramExploreResult& result,
                               const ProgramExploreOptions& options) {
  CaseResult c;
  c.family = "program";
  c.subject = program_case_name(options.command);
  c.program = result.program.empty() ? options.command.front() : result.program;
  c.arguments.assign(options.command.begin() + 1, options.command.end());
  c.scenario = "explore";
  c.mode = Mode::kControlled;
  c.strategy = options.strategy;
  c.budget = options.budget;
  c.seconds = std::chrono::duration<double>(result.wall_time).count();
  if (options.strategy == "dfs" || options.strategy == "plain-dfs") {
    c.preemption_bound = options.preemptions;
  }
  Expectation clean;
  clean.subject = c.subject;
  clean.scenario = c.scenario;
  clean.modes = {Mode::kControlled};
  c.expected = describe_expected(clean, /*verify=*/false);
  c.expected_kinds = KindSet{};
  add_run(c, result.search);
  c.schedule_file = result.schedule_file;
  // A program has no expectation to miss: a finding is what the search
  // found (results.json keeps it as the case's mismatch, so that the exit
  // status and racelab merge count it), and verified is what the search
  // proved, not what was asked of it.
  if (!c.kinds.empty()) {
    c.mismatch = absl::StrCat(
        "found ",
        absl::StrJoin(c.kinds, ", ", [](std::string* out, FindingKind k) {
          absl::StrAppend(out, to_string(k));
        }));
  }
  return c;
}

}  // namespace racelab
