// Lookups in the registry and validation of the expectation table.
#include "racelab/registry.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace racelab {

const CatalogEntry* Registry::find_subject(std::string_view name) const {
  for (const CatalogEntry& e : subjects_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const CatalogEntry* Registry::find_scenario(std::string_view name) const {
  for (const CatalogEntry& e : scenarios_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const CaseSpec* Registry::find_case(std::string_view subject,
                                    std::string_view scenario) const {
  for (const CaseSpec& c : cases_) {
    if (c.subject == subject && c.scenario == scenario) return &c;
  }
  return nullptr;
}

const Expectation* Registry::find_expectation(std::string_view subject,
                                              std::string_view scenario,
                                              Mode mode) const {
  for (const Expectation& e : expectations_) {
    if (e.subject == subject && e.scenario == scenario &&
        std::find(e.modes.begin(), e.modes.end(), mode) != e.modes.end()) {
      return &e;
    }
  }
  return nullptr;
}

std::vector<std::string> Registry::validate() const {
  std::vector<std::string> problems;
  std::set<std::tuple<std::string, std::string, Mode>> seen;
  for (const Expectation& e : expectations_) {
    if (find_case(e.subject, e.scenario) == nullptr) {
      problems.push_back(absl::StrCat("expectation for ", e.subject, " x ",
                                      e.scenario, " names no registered case"));
    }
    const CaseSpec* c = find_case(e.subject, e.scenario);
    // One rule for every buggy case: the store its bug corrupted may crash or
    // hang afterwards, so crash and timeout are allowed beside what catches it.
    for (FindingKind fallout : {FindingKind::kCrash, FindingKind::kTimeout}) {
      auto has = [&](const std::vector<FindingKind>& kinds) {
        return std::find(kinds.begin(), kinds.end(), fallout) != kinds.end();
      };
      if (!e.catches.empty() && !has(e.catches) && !has(e.may_also)) {
        problems.push_back(absl::StrCat("expectation for ", e.subject, " x ",
                                        e.scenario,
                                        " catches a bug but does "
                                        "not allow ",
                                        to_string(fallout), " beside it"));
      }
    }
    for (Mode m : e.modes) {
      if (c != nullptr && !c->runs_in(m)) {
        problems.push_back(absl::StrCat(
            "expectation for ", e.subject, " x ", e.scenario, " in ",
            to_string(m), " mode, which the case does not run in"));
      }
      if (!seen.emplace(e.subject, e.scenario, m).second) {
        problems.push_back(absl::StrCat("two expectations for ", e.subject,
                                        " x ", e.scenario, " in ", to_string(m),
                                        " mode"));
      }
    }
  }
  for (const CaseSpec& c : cases_) {
    for (Mode m : c.modes) {
      if (find_expectation(c.subject, c.scenario, m) == nullptr) {
        problems.push_back(absl::StrCat("no expectation for ", c.subject, " x ",
                                        c.scenario, " in ", to_string(m),
                                        " mode"));
      }
    }
  }
  return problems;
}

}  // namespace racelab
