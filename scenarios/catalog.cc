// The built-in catalog: every subject of a family crossed with every scenario
// of that family, plus the expectation table from subjects/.
#include "catalog.h"

#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "checkpoint_scenarios.h"
#include "expectations.h"
#include "racelab/controlled_runner.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/stress_runner.h"
#include "state_scenarios.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

template <class F>
void register_family(
    Registry& registry,
    const std::vector<SubjectEntry<typename F::Store>>& subjects,
    const std::vector<Scenario<F>>& scenarios) {
  const std::string family(F::kName);
  for (const auto& s : subjects) {
    registry.add_subject({family, absl::StrCat(family, "/", s.variant),
                          std::string(s.description), std::string(s.source),
                          s.buggy});
  }
  for (const Scenario<F>& scenario : scenarios) {
    registry.add_scenario(
        {family, scenario.name, scenario.description, "", false});
    for (const auto& s : subjects) {
      auto make = s.make;
      const Scenario<F>* sc = &scenario;  // catalog entries live forever
      registry.add_case(
          {family, absl::StrCat(family, "/", s.variant), scenario.name,
           [sc, make](const RunRequest& request) {
             if (request.mode == Mode::kControlled) {
               return run_controlled<F>(*sc, make, request, take_tsan_findings);
             }
             return run_stress<F>(*sc, make, request);
           },
           scenario.modes, &program_line_error<F>});
    }
  }
}

std::vector<FindingKind> parse_kinds(const char* list,
                                     const ExpectationRow& row) {
  std::vector<FindingKind> kinds;
  for (std::string name :
       std::vector<std::string>(absl::StrSplit(list, ',', absl::SkipEmpty()))) {
    std::optional<FindingKind> kind = parse_finding_kind(name);
    if (!kind) {
      throw std::logic_error(
          absl::StrCat("expectation table: ", row.subject, " x ", row.scenario,
                       ": unknown finding kind '", name, "'"));
    }
    kinds.push_back(*kind);
  }
  return kinds;
}

}  // namespace

void register_builtin_catalog(Registry& registry) {
  register_family<checkpoint::CheckpointFamily>(
      registry, checkpoint_subjects(), checkpoint::checkpoint_scenarios());
  register_family<state::StateFamily>(registry, state_subjects(),
                                      state::state_scenarios());
  for (const ExpectationRow& row : expectation_table()) {
    Expectation e{std::string(row.subject),
                  std::string(row.scenario),
                  {},
                  parse_kinds(row.catches, row),
                  parse_kinds(row.may_also, row),
                  std::string(row.why)};
    for (std::string mode : std::vector<std::string>(
             absl::StrSplit(row.modes, ',', absl::SkipEmpty()))) {
      if (mode == "stress")
        e.modes.push_back(Mode::kStress);
      else if (mode == "controlled")
        e.modes.push_back(Mode::kControlled);
      else
        throw std::logic_error(
            absl::StrCat("expectation table: unknown mode '", mode, "'"));
    }
    registry.add_expectation(std::move(e));
  }
}

}  // namespace racelab
