// The registry through which the engine knows subjects, scenarios and cases.
// Catalogs (the built-in scenarios, a user's adapter) fill it; the engine only
// reads it.
#ifndef RACELAB_REGISTRY_H_
#define RACELAB_REGISTRY_H_

#include <string>
#include <string_view>
#include <vector>

#include "racelab/expectation.h"
#include "racelab/internal/case.h"

namespace racelab {

class Registry {
 public:
  void add_subject(CatalogEntry entry) {
    subjects_.push_back(std::move(entry));
  }
  void add_scenario(CatalogEntry entry) {
    scenarios_.push_back(std::move(entry));
  }
  // A case of a registered subject takes the subject's source file.
  void add_case(CaseSpec spec) {
    if (const CatalogEntry* s = find_subject(spec.subject);
        s != nullptr && spec.source.empty()) {
      spec.source = s->source;
    }
    cases_.push_back(std::move(spec));
  }
  void add_expectation(Expectation e) { expectations_.push_back(std::move(e)); }
  // A folder holding the catalog's store code (repo-relative, "subjects/", or
  // absolute): findings name their first frame under one of them.
  void add_source_root(std::string root) {
    source_roots_.push_back(std::move(root));
  }

  const std::vector<CatalogEntry>& subjects() const { return subjects_; }
  const std::vector<CatalogEntry>& scenarios() const { return scenarios_; }
  const std::vector<CaseSpec>& cases() const { return cases_; }
  const std::vector<Expectation>& expectations() const { return expectations_; }
  const std::vector<std::string>& source_roots() const { return source_roots_; }

  const CatalogEntry* find_subject(std::string_view name) const;
  const CatalogEntry* find_scenario(std::string_view name) const;
  const CaseSpec* find_case(std::string_view subject,
                            std::string_view scenario) const;
  // The expectation for a case in a mode; nullptr if the table has none.
  const Expectation* find_expectation(std::string_view subject,
                                      std::string_view scenario,
                                      Mode mode) const;

  // Checks the expectations against the catalog: every case has exactly one
  // expectation per mode it runs in, every expectation names a registered case
  // and a mode it runs in, every row that catches a bug allows crash and
  // timeout beside it.
  // Returns one line per problem.
  std::vector<std::string> validate() const;

 private:
  std::vector<CatalogEntry> subjects_;
  std::vector<CatalogEntry> scenarios_;
  std::vector<CaseSpec> cases_;
  std::vector<Expectation> expectations_;
  std::vector<std::string> source_roots_;
};

}  // namespace racelab

#endif  // RACELAB_REGISTRY_H_
