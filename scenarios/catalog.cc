// The built-in catalog: every subject of a family crossed with every scenario
// of that family, with each subject's expectations from subjects/.
#include "catalog.h"

#include "absl/strings/str_cat.h"
#include "anti_patterns.h"
#include "checkpoint_scenarios.h"
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
    for (const ExpectationRow& row : s.expectations) {
      registry.add_expectation(
          expectation_of(absl::StrCat(family, "/", s.variant), row));
    }
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
           scenario.modes, &program_line_error<F>, std::string(s.source)});
    }
  }
}

}  // namespace

void register_builtin_catalog(Registry& registry) {
  registry.add_source_root("subjects/");
  register_family<checkpoint::CheckpointFamily>(
      registry, checkpoint_subjects(), checkpoint::checkpoint_scenarios());
  register_family<state::StateFamily>(registry, state_subjects(),
                                      state::state_scenarios());
  for (const AntiPatternText& p : anti_pattern_texts()) {
    registry.add_anti_pattern({p.name, p.buggy, p.fixed, p.scenario, p.marker,
                               p.summary, p.story, p.oracles});
  }
}

}  // namespace racelab
