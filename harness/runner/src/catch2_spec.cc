// Catch2 (v2) test specs for one test; see catch2_spec.h.
#include "catch2_spec.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "racelab/internal/input_error.h"

namespace racelab::catch2 {
namespace {

// Catch2's own normalising: lower case (ASCII), whitespace at both ends off.
std::string normalised(std::string_view text) {
  return absl::AsciiStrToLower(
      absl::StripAsciiWhitespace(absl::string_view(text.data(), text.size())));
}

// A quoted name pattern: '\' escapes what Catch2 would read as the quote's
// end, a list separator or an escape.
std::string quoted(std::string_view name, bool exclusion) {
  std::string out = exclusion ? "~\"" : "\"";
  for (char c : name) {
    if (c == '\\' || c == ',' || c == '"' || c == '[' || c == ']') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

// Catch2 v2's options that take a value (catch.hpp, makeCommandLineParser).
constexpr std::array<std::string_view, 26> kValueOptions{
    "-o",
    "--out",
    "-r",
    "--reporter",
    "-n",
    "--name",
    "-x",
    "--abortx",
    "-w",
    "--warn",
    "-d",
    "--durations",
    "-D",
    "--min-duration",
    "-c",
    "--section",
    "-v",
    "--verbosity",
    "--order",
    "--rng-seed",
    "--use-colour",
    "--wait-for-keypress",
    "--benchmark-samples",
    "--benchmark-resamples",
    "--benchmark-confidence-interval",
    "--benchmark-warmup-time",
};

bool takes_value(std::string_view arg) {
  return std::find(kValueOptions.begin(), kValueOptions.end(), arg) !=
         kValueOptions.end();
}

bool is_input_file(std::string_view arg) {
  return arg == "-f" || arg == "--input-file";
}

}  // namespace

bool pattern_selects(std::string_view pattern, std::string_view name) {
  std::string body = normalised(pattern);
  const bool at_start = absl::StartsWith(body, "*");
  if (at_start) body.erase(0, 1);
  const bool at_end = absl::EndsWith(body, "*");
  if (at_end) body.pop_back();
  const std::string text = normalised(name);
  if (at_start && at_end) return absl::StrContains(text, body);
  if (at_start) return absl::EndsWith(text, body);
  if (at_end) return absl::StartsWith(text, body);
  return text == body;
}

std::string exact_spec(const std::string& test,
                       const std::vector<std::string>& every_test) {
  if (absl::StartsWith(test, "exclude:")) {
    throw InputError(absl::StrCat("catch2 test '", test,
                                  "': a name that starts with 'exclude:' "
                                  "cannot be run alone (Catch2 reads it as "
                                  "an exclusion)"));
  }
  std::string spec = quoted(test, /*exclusion=*/false);
  for (const std::string& other : every_test) {
    if (other == test || !pattern_selects(test, other)) continue;
    if (pattern_selects(other, test) || absl::StartsWith(other, "exclude:")) {
      throw InputError(absl::StrCat("catch2 test '", test,
                                    "' cannot be run alone: Catch2 cannot tell "
                                    "it from test '",
                                    other,
                                    "' (names match without regard to case "
                                    "and with '*' at an end a wildcard)"));
    }
    spec += quoted(other, /*exclusion=*/true);
  }
  return spec;
}

Arguments split_arguments(const std::vector<std::string>& args) {
  Arguments out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!absl::StartsWith(arg, "-") || arg == "-") {
      out.specs.push_back(arg);
    } else if (is_input_file(arg)) {
      out.specs.push_back(arg);
      if (i + 1 < args.size()) out.specs.push_back(args[++i]);
    } else if (absl::StartsWith(arg, "-f=") || absl::StartsWith(arg, "-f:") ||
               absl::StartsWith(arg, "--input-file=") ||
               absl::StartsWith(arg, "--input-file:")) {
      out.specs.push_back(arg);
    } else {
      out.options.push_back(arg);
      if (takes_value(arg) && i + 1 < args.size()) {
        out.options.push_back(args[++i]);
      }
    }
  }
  return out;
}

}  // namespace racelab::catch2
