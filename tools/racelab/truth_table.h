// The vocabulary of the truth table (`racelab list --truth-table`,
// docs/truth-table.md): its columns, one oracle each, and what an
// expectation asks of each column's oracles.
#ifndef RACELAB_TRUTH_TABLE_H_
#define RACELAB_TRUTH_TABLE_H_

#include <string>
#include <vector>

#include "racelab/expectation.h"
#include "racelab/oracle.h"

namespace racelab {

// The columns of the truth table: one oracle each, crash and timeout (the
// fallout every buggy row allows) together.
const std::vector<OracleSet>& truth_table_columns();
// "tsan", "crash/timeout".
std::string column_heading(OracleSet column);

// What an expectation asks of a column's oracles: kMust (every run that
// catches the bug must show this oracle's kind; it is the only oracle named),
// kOneOf (one of several named oracles must fire), kMay (a consequence it may
// report), kSilent (it must report nothing).
enum class OracleDuty { kMust, kOneOf, kMay, kSilent };
OracleDuty duty_of(const Expectation& e, OracleSet column);
const char* to_string(OracleDuty duty);

}  // namespace racelab

#endif  // RACELAB_TRUTH_TABLE_H_
