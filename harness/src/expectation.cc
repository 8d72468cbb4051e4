// Judging observed findings against an expectation.
#include "racelab/expectation.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace racelab {
namespace {

std::string join_kinds(const std::vector<FindingKind>& kinds, const char* sep) {
  return absl::StrJoin(kinds, sep, [](std::string* out, FindingKind k) {
    absl::StrAppend(out, to_string(k));
  });
}

bool contains(const std::vector<FindingKind>& kinds, FindingKind k) {
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}

}  // namespace

std::string describe_expected(const Expectation& e) {
  return e.catches.empty() ? "clean" : join_kinds(e.catches, " or ");
}

std::string judge(const Expectation& e, const std::vector<FindingKind>& observed) {
  if (e.catches.empty()) {
    if (observed.empty()) return "";
    return absl::StrCat("expected clean, but the case reported ",
                        join_kinds(observed, ", "));
  }
  bool caught = std::any_of(observed.begin(), observed.end(),
                            [&](FindingKind k) { return contains(e.catches, k); });
  if (!caught) {
    return absl::StrCat("expected ", describe_expected(e), " but ",
                        observed.empty() ? std::string("no run found anything")
                                         : "the case reported only " +
                                               join_kinds(observed, ", "));
  }
  std::vector<FindingKind> stray;
  for (FindingKind k : observed) {
    if (!contains(e.catches, k) && !contains(e.may_also, k)) stray.push_back(k);
  }
  if (!stray.empty()) {
    return absl::StrCat("caught as expected, but also reported ",
                        join_kinds(stray, ", "),
                        ", which the expectation does not allow");
  }
  return "";
}

}  // namespace racelab
