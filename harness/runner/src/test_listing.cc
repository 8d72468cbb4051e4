// The tests of a test binary; see test_listing.h.
#include "racelab/test_listing.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "catch2_spec.h"
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

// The listing option a framework's code holds as text: the binary that
// holds it was linked with that framework.
constexpr std::array<std::pair<TestFramework, std::string_view>, 3> kMarks{{
    {TestFramework::kGoogleTest, "--gtest_list_tests"},
    {TestFramework::kCatch2, "--list-test-names-only"},
    {TestFramework::kListing, "--racelab-list-tests"},
}};

std::string_view listing_option(TestFramework framework) {
  for (const auto& [f, option] : kMarks) {
    if (f == framework) return option;
  }
  return "";
}

// Calls `each(number, line)` for every line of `text` (numbered from 1,
// without its '\n' or a '\r' before it).
template <class Each>
void for_each_line(std::string_view text, Each each) {
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    each(++number, line);
  }
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
  for_each_line(text, [&](int number, std::string_view line) {
    const std::string_view body = without_comment(line);
    if (body.starts_with("  ") && !body.starts_with("   ")) {
      const std::string_view name = body.substr(2);
      if (!plain_name(name)) return;  // not a listing line
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
  });
  return tests;
}

std::string_view framework_name(TestFramework framework) {
  switch (framework) {
    case TestFramework::kGoogleTest:
      return "gtest";
    case TestFramework::kCatch2:
      return "catch2";
    case TestFramework::kListing:
      return "listing";
  }
  return "?";
}

std::optional<TestFramework> framework_named(std::string_view name) {
  for (TestFramework f : {TestFramework::kGoogleTest, TestFramework::kCatch2,
                          TestFramework::kListing}) {
    if (framework_name(f) == name) return f;
  }
  return std::nullopt;
}

std::optional<TestFramework> detect_test_framework(const std::string& program) {
  const std::string path = resolve_program("explore --tests", program);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::array<bool, kMarks.size()> seen{};
  // Read in blocks that overlap by the longest mark, so that a mark across
  // two blocks is seen.
  constexpr std::size_t kBlock = 1 << 20;
  constexpr std::size_t kOverlap = 64;
  std::string block(kBlock + kOverlap, '\0');
  std::size_t kept = 0;
  for (;;) {
    const ssize_t n = ::read(fd, block.data() + kept, kBlock);
    if (n <= 0) break;
    const std::string_view view(block.data(),
                                kept + static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < kMarks.size(); ++i) {
      if (view.find(kMarks[i].second) != std::string_view::npos) seen[i] = true;
    }
    kept = std::min(kOverlap, view.size());
    std::memmove(block.data(), view.data() + view.size() - kept, kept);
  }
  ::close(fd);
  for (std::size_t i = 0; i < kMarks.size(); ++i) {
    if (seen[i]) return kMarks[i].first;
  }
  return std::nullopt;
}

std::vector<std::string> parse_name_listing(std::string_view text) {
  std::vector<std::string> tests;
  std::set<std::string_view> names;
  for_each_line(text, [&](int number, std::string_view line) {
    if (line.empty()) return;
    if (std::any_of(line.begin(), line.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        })) {
      throw InputError(absl::StrCat("line ", number,
                                    ": a test name with a control character"));
    }
    if (!names.insert(line).second) {
      throw InputError(absl::StrCat("line ", number, ": test '",
                                    std::string(line), "' is listed twice"));
    }
    tests.emplace_back(line);
  });
  return tests;
}

std::vector<std::string> list_tests(TestFramework framework,
                                    const std::vector<std::string>& command,
                                    int seconds) {
  const std::string where = "explore --tests";
  const std::string path = resolve_program(where, command.front());
  const CheckedProgram program = open_runtime_program(where, path);
  const std::string option(listing_option(framework));
  ProgramLaunch launch;
  launch.program_fd = program.fd();
  launch.argv = command;
  launch.argv.push_back(option);
  launch.hang_seconds = seconds;
  launch.out_head = kMaxListingBytes;
  const ProgramRun run = run_program(launch);
  const std::string what = absl::StrCat(where, ": ", path);
  if (run.exec_errno != 0) {
    throw InputError(absl::StrCat(what, ": cannot be run"));
  }
  if (run.hung) {
    throw InputError(
        absl::StrCat(what, ": ", option, " did not end in ", seconds, " s"));
  }
  // Catch2 v2 ends a listing with its count of tests as the status.
  const bool status_ok =
      WIFEXITED(run.status) &&
      (framework == TestFramework::kCatch2 || WEXITSTATUS(run.status) == 0);
  if (!status_ok) {
    throw InputError(
        absl::StrCat(what, ": ", option, " did not end with status 0 (not a ",
                     std::string(framework_name(framework)), " binary?)"));
  }
  if (run.out.dropped() > 0) {
    throw InputError(absl::StrCat(what, ": the listing is longer than ",
                                  kMaxListingBytes, " bytes"));
  }
  std::vector<std::string> tests;
  try {
    tests = framework == TestFramework::kGoogleTest
                ? parse_gtest_listing(run.out.text())
                : parse_name_listing(run.out.text());
  } catch (const InputError& e) {
    throw InputError(absl::StrCat(what, ": ", option, ": ", e.what()));
  }
  // Catch2 prints a name that starts with '#' in quotes.
  if (framework == TestFramework::kCatch2) {
    for (std::string& test : tests) {
      if (test.size() > 2 && test.starts_with("\"#") && test.ends_with('"')) {
        test = test.substr(1, test.size() - 2);
      }
    }
  }
  if (tests.empty()) {
    throw InputError(absl::StrCat(what, ": lists no test"));
  }
  // Catch2's status counts the names it printed; a binary that ignored the
  // option and ran its tests instead printed something else.
  if (framework == TestFramework::kCatch2 &&
      WEXITSTATUS(run.status) != static_cast<int>(tests.size() % 256)) {
    throw InputError(absl::StrCat(what, ": ", option, " printed ", tests.size(),
                                  " lines but ended with status ",
                                  WEXITSTATUS(run.status),
                                  " (not a catch2 binary?)"));
  }
  return tests;
}

std::vector<std::string> tests_a_name_may_select(
    TestFramework framework, const std::vector<std::string>& command,
    int seconds) {
  if (framework != TestFramework::kCatch2) return {};
  std::vector<std::string> every{command.front()};
  const catch2::Arguments args = catch2::split_arguments(
      std::vector<std::string>(command.begin() + 1, command.end()));
  every.insert(every.end(), args.options.begin(), args.options.end());
  every.push_back("*");
  return list_tests(framework, every, seconds);
}

std::vector<std::string> one_test_command(
    TestFramework framework, const std::vector<std::string>& command,
    const std::string& test, const std::vector<std::string>& selectable) {
  std::vector<std::string> out{command.front()};
  const std::vector<std::string> args(command.begin() + 1, command.end());
  switch (framework) {
    case TestFramework::kGoogleTest:
      for (const std::string& arg : args) {
        if (!arg.starts_with("--gtest_filter=")) out.push_back(arg);
      }
      out.push_back("--gtest_filter=" + test);
      break;
    case TestFramework::kCatch2: {
      const catch2::Arguments split = catch2::split_arguments(args);
      out.insert(out.end(), split.options.begin(), split.options.end());
      out.push_back(catch2::exact_spec(test, selectable));
      break;
    }
    case TestFramework::kListing:
      for (const std::string& arg : args) {
        if (!arg.starts_with("--racelab-test=")) out.push_back(arg);
      }
      out.push_back("--racelab-test=" + test);
      break;
  }
  return out;
}

}  // namespace racelab
