// The one result format: a run's observation (RunObservation, with its
// findings, schedule and trace) as JSON. Every child that reports a result
// to racelab writes it in this form (a kit check's or racelab::explore's
// forked child, the gate's case child), and results.json spells its findings
// and traces the same way.
#ifndef RACELAB_OBSERVATION_JSON_H_
#define RACELAB_OBSERVATION_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "racelab/finding.h"
#include "racelab/internal/case.h"
#include "racelab/internal/sched/trace.h"

namespace racelab {

nlohmann::json to_json(const Frame& frame);
nlohmann::json to_json(const Finding& finding);
// A trace as {"threads": N, "rows": [{"step", "thread", "kind", "text",
// "lock"?, "shared"?}]}, kinds spelt by sched::to_string(TraceKind).
nlohmann::json to_json(const sched::Trace& trace);
// Every field of the observation; fields at their default are left out.
nlohmann::json to_json(const RunObservation& observation);

// The inverses throw nlohmann::json::exception on a malformed object, an
// unknown kind or oracle.
Frame frame_from_json(const nlohmann::json& j);
Finding finding_from_json(const nlohmann::json& j);
sched::Trace trace_from_json(const nlohmann::json& j);
RunObservation observation_from_json(const nlohmann::json& j);

// The observation as one line of text and back; decode_observation throws
// std::runtime_error naming what is wrong with a line that is not one.
std::string encode_observation(const RunObservation& observation);
RunObservation decode_observation(std::string_view text);

}  // namespace racelab

#endif  // RACELAB_OBSERVATION_JSON_H_
