// The words of the reports of `racelab explore` (a whole program, or each
// test of a test binary): a case is found, clean or verified, counted so in
// the headline, and named by its program and arguments or by its test; see
// report_internal.h.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab::report {

ExploreVerdict explore_verdict_of(const CaseResult& c) {
  if (!c.kinds.empty()) return ExploreVerdict::kFound;
  return c.verified ? ExploreVerdict::kVerified : ExploreVerdict::kClean;
}

const char* to_string(ExploreVerdict verdict) {
  switch (verdict) {
    case ExploreVerdict::kFound:
      return "found";
    case ExploreVerdict::kClean:
      return "clean";
    case ExploreVerdict::kVerified:
      return "verified";
  }
  return "found";
}

bool is_explore(const GateOptions& options) {
  return options.run_kind != RunKind::kGate;
}

std::string report_title(const GateResult& result, const GateOptions& options) {
  if (!is_explore(options)) return "racelab gate";
  if (result.cases.empty()) return "racelab explore";
  return absl::StrCat("racelab explore: ", result.cases.front().subject);
}

std::string headline_text(const GateResult& result,
                          const GateOptions& options) {
  const std::size_t n = result.cases.size();
  if (!is_explore(options)) {
    const int m = result.mismatches;
    return absl::StrCat(n, n == 1 ? " case, " : " cases, ", m,
                        m == 1 ? " mismatch" : " mismatches");
  }
  int found = 0, clean = 0, verified = 0;
  for (const CaseResult& c : result.cases) {
    switch (explore_verdict_of(c)) {
      case ExploreVerdict::kFound:
        ++found;
        break;
      case ExploreVerdict::kClean:
        ++clean;
        break;
      case ExploreVerdict::kVerified:
        ++verified;
        break;
    }
  }
  const bool tests = options.run_kind == RunKind::kExploreTests;
  return absl::StrCat(n,
                      tests ? (n == 1 ? " test: " : " tests: ")
                            : (n == 1 ? " search: " : " searches: "),
                      found, " found, ", clean, " clean, ", verified,
                      " verified");
}

std::string case_name(const CaseResult& c, RunKind kind) {
  switch (kind) {
    case RunKind::kGate:
      return case_title(c);
    case RunKind::kExploreProgram:
      return c.subject;
    case RunKind::kExploreTests:
      return c.scenario;
  }
  return case_title(c);
}

std::string explore_outcome(const CaseResult& c) {
  const std::string how =
      c.strategy.empty() ? "" : absl::StrCat(" (", c.strategy, ")");
  switch (explore_verdict_of(c)) {
    case ExploreVerdict::kFound: {
      std::string text = absl::StrCat(
          "found ",
          absl::StrJoin(c.kinds, ", ", [](std::string* out, FindingKind k) {
            absl::StrAppend(out, to_string(k));
          }));
      if (c.first_failing >= 0) {
        absl::StrAppend(&text, " at schedule ", c.first_failing + 1, " of ",
                        c.schedules);
      }
      return text + how;
    }
    case ExploreVerdict::kVerified:
      return absl::StrCat("verified: every schedule that matters, ",
                          c.schedules, " in all", how);
    case ExploreVerdict::kClean:
      break;
  }
  return absl::StrCat("clean over ", c.schedules,
                      c.schedules == 1 ? " schedule" : " schedules", how);
}

}  // namespace racelab::report
