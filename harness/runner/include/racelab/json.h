// JSON forms of findings and case results: the result channel between a child
// and its parent, and results.json (schema in reports/results.schema.json).
#ifndef RACELAB_JSON_H_
#define RACELAB_JSON_H_

#include <nlohmann/json.hpp>

#include "racelab/finding.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/kind_set.h"
#include "racelab/observation_json.h"
#include "racelab/runner.h"

namespace racelab {

inline constexpr int kResultsSchemaVersion = 2;

// A case's outcome histogram as results.json writes it: an object keyed by
// the outcome ("clean", "data_race+crash"). histogram_from_json throws
// nlohmann::json::other_error on an unknown kind.
nlohmann::json histogram_to_json(const std::map<KindSet, int>& histogram);
std::map<KindSet, int> histogram_from_json(const nlohmann::json& j);

// Findings and traces: to_json, finding_from_json and trace_from_json of
// racelab/observation_json.h.
nlohmann::json to_json(const CaseResult& result);
// The inverse of to_json(CaseResult), for `racelab merge`: every field the
// reports use. first_failure_log is not in the object (results.json keeps it
// under logs/) and stays empty. Throws nlohmann::json::exception on a
// malformed object.
CaseResult case_result_from_json(const nlohmann::json& j);

}  // namespace racelab

#endif  // RACELAB_JSON_H_
