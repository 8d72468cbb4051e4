// The built-in catalog: every subject of a family crossed with every scenario
// of that family, with each subject's expectations from subjects/.
#include "catalog.h"

#include "absl/strings/str_cat.h"
#include "checkpoint_spec.h"
#include "racelab/spec.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

// One family from its spec: every subject's store made by its factory,
// crossed with every scenario the spec declares.
template <class Store, class Model>
void register_family(Registry& registry, const Spec<Store, Model>& spec,
                     const std::vector<SubjectEntry<Store>>& subjects) {
  const std::string& family = spec.name();
  const SpecRef any_subject = Spec<Store, Model>(spec).make(subjects[0].make);
  const std::vector<SpecScenarioInfo> scenarios = spec_scenarios(any_subject);
  // A row of a scenario the spec does not declare is refused by the
  // registry; until then it counts as many programs (never verified).
  auto programs_of = [&](std::string_view name) {
    for (const SpecScenarioInfo& scenario : scenarios) {
      if (scenario.name == name) {
        return scenario.seeded ? ScenarioPrograms::kOnePerSeed
                               : ScenarioPrograms::kOne;
      }
    }
    return ScenarioPrograms::kOnePerSeed;
  };
  for (const auto& s : subjects) {
    registry.add_subject({family, absl::StrCat(family, "/", s.variant),
                          std::string(s.description), std::string(s.source),
                          s.buggy});
    for (const ExpectationRow& row : s.expectations) {
      registry.add_expectation(
          expectation_of(absl::StrCat(family, "/", s.variant), row,
                         programs_of(row.scenario)));
    }
  }
  for (const SpecScenarioInfo& scenario : scenarios) {
    registry.add_scenario(
        {family, scenario.name, scenario.description, "", false});
    for (const auto& s : subjects) {
      const SpecRef subject = Spec<Store, Model>(spec).make(s.make);
      std::function<RunObservation(const RunRequest&)> run =
          spec_case_runner(subject, scenario.name);
      if (s.memory_model) {
        run = [run](const RunRequest& request) {
          RunRequest with_model = request;
          with_model.memory_model = true;
          return run(with_model);
        };
      }
      registry.add_case({family, absl::StrCat(family, "/", s.variant),
                         scenario.name, std::move(run), scenario.modes,
                         spec_program_line_checker(subject),
                         std::string(s.source)});
    }
  }
}

}  // namespace

void register_builtin_catalog(Registry& registry) {
  registry.add_source_root("subjects/");
  register_family(registry, checkpoint::checkpoint_spec(),
                  checkpoint_subjects());
  register_family(registry, state::state_spec(), state_subjects());
}

}  // namespace racelab
