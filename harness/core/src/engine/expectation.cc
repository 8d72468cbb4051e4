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

// Which oracle reports a kind of finding. (TSan also reports
// heap-use-after-free when the free races with the access; the table credits
// ASan, whose job it is.)
std::string oracle_of(FindingKind k) {
  switch (k) {
    case FindingKind::kDataRace:
      return "tsan";
    case FindingKind::kUseAfterFree:
      return "asan";
    case FindingKind::kNotLinearizable:
      return "linearizability";
    case FindingKind::kDeadlock:
      return "deadlock";
    case FindingKind::kConcurrentMapWrite:
    case FindingKind::kMapIterationDuringWrite:
      return "gomap";
    case FindingKind::kCrash:
    case FindingKind::kTimeout:
      return "crash/timeout";
  }
  return "?";
}

}  // namespace

const std::vector<std::string>& truth_table_oracles() {
  static const auto* oracles = new std::vector<std::string>{
      "tsan", "asan", "linearizability", "gomap", "deadlock", "crash/timeout"};
  return *oracles;
}

OracleDuty duty_of(const Expectation& e, const std::string& oracle) {
  std::vector<std::string> named;
  for (FindingKind k : e.catches) {
    if (std::find(named.begin(), named.end(), oracle_of(k)) == named.end()) {
      named.push_back(oracle_of(k));
    }
  }
  if (std::find(named.begin(), named.end(), oracle) != named.end()) {
    return named.size() == 1 ? OracleDuty::kMust : OracleDuty::kOneOf;
  }
  for (FindingKind k : e.may_also) {
    if (oracle_of(k) == oracle) return OracleDuty::kMay;
  }
  return OracleDuty::kSilent;
}

const char* to_string(OracleDuty duty) {
  switch (duty) {
    case OracleDuty::kMust:
      return "MUST";
    case OracleDuty::kOneOf:
      return "one of";
    case OracleDuty::kMay:
      return "may";
    case OracleDuty::kSilent:
      return "-";
  }
  return "?";
}

std::string describe_expected(const Expectation& e) {
  return e.catches.empty() ? "clean" : join_kinds(e.catches, " or ");
}

std::string judge(const Expectation& e,
                  const std::vector<FindingKind>& observed) {
  if (e.catches.empty()) {
    if (observed.empty()) return "";
    return absl::StrCat("expected clean, but the case reported ",
                        join_kinds(observed, ", "));
  }
  bool caught =
      std::any_of(observed.begin(), observed.end(),
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
