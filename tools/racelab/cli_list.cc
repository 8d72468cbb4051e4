// racelab list: the subjects, scenarios and expectations, or the expectation
// table alone (--truth-table).
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

void print_list(const Registry& registry, std::ostream& out) {
  out << "subjects:\n";
  for (const CatalogEntry& s : registry.subjects()) {
    out << absl::StrFormat("  %-32s %-6s %s\n", s.name,
                           s.buggy ? "buggy" : "fixed", s.description);
  }
  out << "\nscenarios:\n";
  for (const CatalogEntry& s : registry.scenarios()) {
    out << absl::StrFormat("  %-12s %-27s %s\n", s.family, s.name,
                           s.description);
  }
  out << "\nexpectations (subject x scenario -> verdict):\n";
  for (const Expectation& e : registry.expectations()) {
    std::string modes = absl::StrJoin(e.modes, ",", [](std::string* o, Mode m) {
      absl::StrAppend(o, to_string(m));
    });
    out << absl::StrFormat("  %-32s %-27s %-18s %-36s %s\n", e.subject,
                           e.scenario, modes, describe_expected(e), e.why);
  }
}

// The expectation table per oracle, as a Markdown table (docs/truth-table.md
// is this output).
void print_truth_table(const Registry& registry, std::ostream& out) {
  out << "| subject | scenario | modes | verdict |";
  for (OracleSet column : truth_table_columns())
    out << " " << column_heading(column) << " |";
  out << " why |\n|---|---|---|---|";
  for (size_t i = 0; i < truth_table_columns().size(); ++i) out << "---|";
  out << "---|\n";
  for (const Expectation& e : registry.expectations()) {
    std::string modes = absl::StrJoin(
        e.modes, ", ",
        [](std::string* o, Mode m) { absl::StrAppend(o, to_string(m)); });
    out << "| " << e.subject << " | " << e.scenario << " | " << modes << " | "
        << (!e.catches.empty() ? "caught"
            : e.verified       ? "clean, verified in controlled"
                               : "clean")
        << " |";
    for (OracleSet column : truth_table_columns()) {
      out << " " << to_string(duty_of(e, column)) << " |";
    }
    out << " " << e.why << " |\n";
  }
  out << "\nMUST: this oracle must catch it; one of: at least one of the "
         "oracles so "
         "marked must catch it; may: a consequence it may also report; -: it "
         "must stay "
         "silent. The gate fails on a case whose runs break any of these.\n";
}

}  // namespace

// racelab list
Subcommand add_list_command(CLI::App& app, const Registry& registry) {
  auto truth_table = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("list", "list subjects, scenarios and expectations");
  cmd->add_flag("--truth-table", *truth_table,
                "print only the expectation table");
  return {cmd, [&registry, truth_table] {
            if (*truth_table) {
              print_truth_table(registry, std::cout);
            } else {
              print_list(registry, std::cout);
            }
            return kExitOk;
          }};
}

}  // namespace racelab::cli_internal
