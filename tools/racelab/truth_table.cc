// The truth table's columns and what an expectation asks of each of them.
#include "racelab/truth_table.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace racelab {

const std::vector<OracleSet>& truth_table_columns() {
  static const auto* columns =
      new std::vector<OracleSet>{{Oracle::kTsan},
                                 {Oracle::kAsan},
                                 {Oracle::kLinearizability},
                                 {Oracle::kInvariants},
                                 {Oracle::kGomap},
                                 {Oracle::kDeadlock},
                                 {Oracle::kCrash, Oracle::kTimeout}};
  return *columns;
}

std::string column_heading(OracleSet column) {
  return absl::StrJoin(column, "/", [](std::string* out, Oracle o) {
    absl::StrAppend(out, to_string(o));
  });
}

OracleDuty duty_of(const Expectation& e, OracleSet column) {
  // The columns whose oracles report a kind that catches the bug.
  std::vector<OracleSet> named;
  for (FindingKind k : e.catches) {
    for (OracleSet c : truth_table_columns()) {
      if (c.contains(oracle_of(k)) &&
          std::find(named.begin(), named.end(), c) == named.end()) {
        named.push_back(c);
      }
    }
  }
  if (std::find(named.begin(), named.end(), column) != named.end()) {
    return named.size() == 1 ? OracleDuty::kMust : OracleDuty::kOneOf;
  }
  for (FindingKind k : e.may_also) {
    if (column.contains(oracle_of(k))) return OracleDuty::kMay;
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
}  // namespace racelab
