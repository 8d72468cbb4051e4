// Judging observed findings against an expectation.
#include "racelab/expectation.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/internal/sched/strategy.h"

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

Oracle oracle_of(FindingKind k) {
  switch (k) {
    case FindingKind::kDataRace:
      return Oracle::kTsan;
    case FindingKind::kUseAfterFree:
      return Oracle::kAsan;
    case FindingKind::kNotLinearizable:
      return Oracle::kLinearizability;
    case FindingKind::kInvariantViolation:
      return Oracle::kInvariants;
    case FindingKind::kDeadlock:
      return Oracle::kDeadlock;
    case FindingKind::kConcurrentMapWrite:
    case FindingKind::kMapIterationDuringWrite:
      return Oracle::kGomap;
    case FindingKind::kCrash:
      return Oracle::kCrash;
    case FindingKind::kTimeout:
      return Oracle::kTimeout;
  }
  return Oracle::kCrash;
}

Expectation expectation_of(const std::string& subject,
                           const ExpectationRow& row,
                           ScenarioPrograms programs) {
  Expectation e{subject,
                row.scenario,
                row.modes.to_vector(),
                row.catches.to_vector(),
                row.may_also.to_vector(),
                row.why};
  e.verified = row.catches.empty() && row.modes.contains(Mode::kControlled) &&
               programs == ScenarioPrograms::kOne;
  return e;
}

std::string describe_expected(const Expectation& e) {
  if (e.verified) return "clean (controlled: verified)";
  return e.catches.empty() ? "clean" : join_kinds(e.catches, " or ");
}

bool asks_to_verify(const Expectation& e, Mode mode) {
  return e.verified && mode == Mode::kControlled;
}

bool must_verify(const Expectation& e, Mode mode, std::string_view strategy) {
  const std::optional<sched::StrategyKind> kind =
      sched::strategy_kind(strategy);
  return asks_to_verify(e, mode) && kind && sched::searches_one_program(*kind);
}

std::string describe_expected(const Expectation& e, bool verify) {
  if (verify) return "verified";
  return e.catches.empty() ? "clean" : join_kinds(e.catches, " or ");
}

std::string judge(const Expectation& e, bool verify,
                  const std::vector<FindingKind>& observed, bool verified) {
  std::string verdict = judge(e, observed);
  if (!verdict.empty()) return verdict;
  if (verify && !verified) {
    return "expected verified, but the search was not exhausted: clean only "
           "over the schedules tried (raise --budget, or run the gate's "
           "dfs)";
  }
  if (!e.verified && verified) {
    return "verified, but the table expects only clean (a row that is "
           "verified must say so)";
  }
  return "";
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
