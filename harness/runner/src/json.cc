// JSON encoding of case results (results.json) and the result channel
// lines; findings and traces are spelt as observation_json.h spells them.
#include "racelab/json.h"

#include "racelab/result_channel.h"

namespace racelab {
nlohmann::json histogram_to_json(const std::map<KindSet, int>& histogram) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [outcome, runs] : histogram) j[to_string(outcome)] = runs;
  return j;
}

std::map<KindSet, int> histogram_from_json(const nlohmann::json& j) {
  std::map<KindSet, int> histogram;
  for (const auto& [key, runs] : j.items()) {
    std::optional<KindSet> outcome = parse_kind_set(key);
    if (!outcome)
      throw nlohmann::json::other_error::create(
          501, "unknown finding kind in histogram key '" + key + "'", &j);
    histogram[*outcome] += runs.get<int>();
  }
  return histogram;
}

namespace {

nlohmann::json schedule_json(const RecordedSchedule& schedule) {
  return {{"decisions", schedule.decisions},
          {"preemptions", schedule.preemptions},
          {"program", schedule.program}};
}

// The schedule's decisions, preemptions and program from `j` (its trace
// comes from a "trace" object beside it).
void read_schedule_json(const nlohmann::json& j, RecordedSchedule& schedule) {
  schedule.decisions = j.at("decisions").get<std::vector<int>>();
  schedule.preemptions = j.at("preemptions").get<int>();
  schedule.program = j.at("program").get<std::vector<std::string>>();
}

}  // namespace

nlohmann::json to_json(const CaseResult& r) {
  nlohmann::json findings = nlohmann::json::array();
  for (const AggregatedFinding& a : r.findings) {
    nlohmann::json j = to_json(a.finding);
    j["runs"] = a.runs;
    findings.push_back(std::move(j));
  }
  nlohmann::json j = {{"family", r.family},
                      {"subject", r.subject},
                      {"scenario", r.scenario},
                      {"mode", std::string(to_string(r.mode))},
                      {"expected", r.expected},
                      {"observed", r.observed()},
                      {"match", r.mismatch.empty()},
                      {"mismatch", r.mismatch},
                      {"runs", r.runs},
                      {"runs_with_finding", r.runs_with_finding},
                      {"seconds", r.seconds},
                      {"histogram", histogram_to_json(r.histogram)},
                      {"findings", findings}};
  if (!r.source.empty()) j["source"] = r.source;
  if (!r.program.empty()) {
    j["program"] = r.program;
    j["arguments"] = r.arguments;
  }
  if (r.expected_kinds) {
    nlohmann::json kinds = nlohmann::json::array();
    for (FindingKind k : r.expected_kinds->members())
      kinds.push_back(to_string(k));
    j["expected_kinds"] = kinds;
  }
  if (r.mode == Mode::kControlled) {
    j["schedules"] = r.schedules;
    j["first_failing_schedule"] = r.first_failing;
    j["verified"] = r.verified;
    if (r.verified) j["preemption_bound"] = r.preemption_bound;
    if (!r.strategy.empty()) {
      j["strategy"] = r.strategy;
      j["budget"] = r.budget;
    }
  }
  if (!r.retried.empty()) {
    nlohmann::json retried = nlohmann::json::array();
    for (const RetriedRun& run : r.retried) {
      retried.push_back({{"run", run.run},
                         {"signal", run.signal},
                         {"ended_again", run.ended_again},
                         {"why", describe(run)}});
    }
    j["retried"] = std::move(retried);
  }
  if (!r.schedule.trace.rows.empty()) {
    j["trace"] = to_json(r.schedule.trace);
    j["schedule"] = schedule_json(r.schedule);
    if (!r.schedule_file.empty()) j["schedule_file"] = r.schedule_file;
  }
  return j;
}

CaseResult case_result_from_json(const nlohmann::json& j) {
  CaseResult r;
  r.family = j.at("family").get<std::string>();
  r.subject = j.at("subject").get<std::string>();
  r.scenario = j.at("scenario").get<std::string>();
  r.source = j.value("source", std::string());
  r.program = j.value("program", std::string());
  r.arguments = j.value("arguments", std::vector<std::string>{});
  const std::string mode = j.at("mode").get<std::string>();
  if (mode == "stress") {
    r.mode = Mode::kStress;
  } else if (mode == "controlled") {
    r.mode = Mode::kControlled;
  } else {
    throw nlohmann::json::other_error::create(501, "unknown mode", &j);
  }
  r.expected = j.at("expected").get<std::string>();
  if (j.contains("expected_kinds")) {
    r.expected_kinds.emplace();
    for (const auto& name : j.at("expected_kinds")) {
      std::optional<FindingKind> kind =
          parse_finding_kind(name.get<std::string>());
      if (!kind) {
        throw nlohmann::json::other_error::create(501, "unknown kind", &j);
      }
      r.expected_kinds->insert(*kind);
    }
  }
  const std::string observed = j.at("observed").get<std::string>();
  if (observed != "clean" && observed != "verified") {
    for (std::size_t at = 0; at <= observed.size();) {
      std::size_t comma = observed.find(',', at);
      if (comma == std::string::npos) comma = observed.size();
      std::optional<FindingKind> kind =
          parse_finding_kind(observed.substr(at, comma - at));
      if (!kind)
        throw nlohmann::json::other_error::create(
            501, "unknown finding kind in observed", &j);
      r.kinds.push_back(*kind);
      at = comma + 1;
    }
  }
  r.mismatch = j.at("mismatch").get<std::string>();
  if (r.mismatch.empty() != j.at("match").get<bool>())
    throw nlohmann::json::other_error::create(
        501, "match and mismatch disagree", &j);
  r.runs = j.at("runs").get<int>();
  r.runs_with_finding = j.at("runs_with_finding").get<int>();
  r.seconds = j.at("seconds").get<double>();
  r.histogram = histogram_from_json(j.at("histogram"));
  for (const nlohmann::json& f : j.at("findings"))
    r.findings.push_back({finding_from_json(f), f.at("runs").get<int>()});
  r.schedules = j.value("schedules", 0);
  r.first_failing = j.value("first_failing_schedule", -1);
  r.verified = j.value("verified", false);
  if (r.verified != (observed == "verified")) {
    throw nlohmann::json::other_error::create(
        501, "verified and observed disagree", &j);
  }
  if (r.verified) r.exhaustive_runs = r.runs;
  r.preemption_bound = j.value("preemption_bound", -1);
  r.strategy = j.value("strategy", std::string());
  r.budget = j.value("budget", 0);
  for (const nlohmann::json& run :
       j.value("retried", nlohmann::json::array())) {
    r.retried.push_back({run.at("run").get<int>(),
                         run.at("signal").get<std::string>(),
                         run.at("ended_again").get<bool>()});
  }
  if (j.contains("trace")) r.schedule.trace = trace_from_json(j.at("trace"));
  if (j.contains("schedule")) read_schedule_json(j.at("schedule"), r.schedule);
  r.schedule_file = j.value("schedule_file", std::string());
  return r;
}

std::string event_line(const std::string& event, const std::string& message) {
  // A message may quote the input; bytes that are not UTF-8 must not make
  // the report itself fail.
  return nlohmann::json{{"event", event}, {"message", message}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string run_done_line(const RunObservation& observation) {
  return nlohmann::json{{"event", "run_done"},
                        {"observation", to_json(observation)}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace racelab
