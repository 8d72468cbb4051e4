// The tests of a test binary; see test_listing.h.
#include "racelab/test_listing.h"

#include <sys/wait.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "program_process.h"
#include "racelab/internal/input_error.h"
#include "runtime_mark.h"

namespace racelab {
namespace {

constexpr std::size_t kMaxListingBytes = std::size_t{8} << 20;

// The line without its "  # ..." comment (a parameter's or a type's).
std::string_view without_comment(std::string_view line) {
  const std::size_t hash = line.find("  #");
  return hash == std::string_view::npos ? line : line.substr(0, hash);
}

bool plain_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte < 0x7f && c != '"' && c != '\'' && c != '\\';
  });
}

}  // namespace

std::vector<std::string> parse_gtest_listing(std::string_view text) {
  std::vector<std::string> tests;
  std::string suite;
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view body = without_comment(line);
    if (body.starts_with("  ") && !body.starts_with("   ")) {
      const std::string_view name = body.substr(2);
      if (!plain_name(name)) continue;  // not a listing line
      if (suite.empty()) {
        throw InputError(absl::StrCat("line ", number, ": test '",
                                      std::string(name),
                                      "' before any test suite"));
      }
      tests.push_back(suite + std::string(name));
    } else if (body.size() > 1 && body.back() == '.' &&
               plain_name(body.substr(0, body.size() - 1))) {
      suite = std::string(body);  // "Suite." with its dot
    }
  }
  return tests;
}

std::vector<std::string> list_gtest_tests(
    const std::vector<std::string>& command, int seconds) {
  const std::string where = "explore --tests";
  const std::string path = resolve_program(where, command.front());
  const CheckedProgram program = open_runtime_program(where, path);
  ProgramLaunch launch;
  launch.program_fd = program.fd();
  launch.argv = command;
  launch.argv.push_back("--gtest_list_tests");
  launch.hang_seconds = seconds;
  launch.out_head = kMaxListingBytes;
  const ProgramRun run = run_program(launch);
  const std::string what = absl::StrCat(where, ": ", path);
  if (run.exec_errno != 0) {
    throw InputError(absl::StrCat(what, ": cannot be run"));
  }
  if (run.hung) {
    throw InputError(absl::StrCat(what, ": --gtest_list_tests did not end in ",
                                  seconds, " s"));
  }
  if (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0) {
    throw InputError(
        absl::StrCat(what,
                     ": --gtest_list_tests did not end with status 0 (not a "
                     "GoogleTest binary?)"));
  }
  if (run.out.dropped() > 0) {
    throw InputError(absl::StrCat(what, ": the listing is longer than ",
                                  kMaxListingBytes, " bytes"));
  }
  std::vector<std::string> tests;
  try {
    tests = parse_gtest_listing(run.out.text());
  } catch (const InputError& e) {
    throw InputError(absl::StrCat(what, ": --gtest_list_tests: ", e.what()));
  }
  if (tests.empty()) {
    throw InputError(absl::StrCat(what, ": lists no test"));
  }
  return tests;
}

std::vector<std::string> one_gtest_command(
    const std::vector<std::string>& command, const std::string& test) {
  std::vector<std::string> out;
  for (const std::string& arg : command) {
    if (!arg.starts_with("--gtest_filter=")) out.push_back(arg);
  }
  out.push_back("--gtest_filter=" + test);
  return out;
}

}  // namespace racelab
