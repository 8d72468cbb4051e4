// JSON encoding of findings and case results, and the result channel lines.
#include "racelab/json.h"

#include "racelab/result_channel.h"

namespace racelab {
namespace {

nlohmann::json to_json(const Frame& f) {
  return {{"function", f.function},
          {"file", f.file},
          {"line", f.line},
          {"origin", to_string(f.origin)}};
}

Frame frame_from_json(const nlohmann::json& j) {
  Frame f{j.at("function").get<std::string>(), j.at("file").get<std::string>(),
          j.at("line").get<int>()};
  // Frames written before origins were recorded are judged by their file.
  std::optional<FrameOrigin> origin;
  if (j.contains("origin"))
    origin = parse_frame_origin(j.at("origin").get<std::string>());
  f.origin = origin ? *origin : frame_origin_of(f.file);
  return f;
}

}  // namespace

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

nlohmann::json to_json(const Finding& finding) {
  nlohmann::json j = {{"kind", std::string(to_string(finding.kind))},
                      {"oracle", std::string(to_string(finding.oracle))},
                      {"summary", finding.summary}};
  if (!finding.detail.empty()) j["detail"] = finding.detail;
  if (finding.subject_frame)
    j["subject_frame"] = to_json(*finding.subject_frame);
  if (!finding.accesses.empty()) {
    nlohmann::json accesses = nlohmann::json::array();
    for (const Access& a : finding.accesses) {
      nlohmann::json stack = nlohmann::json::array();
      for (const Frame& f : a.stack) stack.push_back(to_json(f));
      accesses.push_back(
          {{"what", a.what}, {"thread", a.thread}, {"stack", stack}});
    }
    j["accesses"] = accesses;
  }
  return j;
}

Finding finding_from_json(const nlohmann::json& j) {
  std::optional<FindingKind> kind =
      parse_finding_kind(j.at("kind").get<std::string>());
  if (!kind)
    throw nlohmann::json::other_error::create(501, "unknown finding kind", &j);
  std::optional<Oracle> oracle =
      parse_oracle(j.at("oracle").get<std::string>());
  if (!oracle)
    throw nlohmann::json::other_error::create(501, "unknown oracle", &j);
  Finding f{*kind,
            *oracle,
            j.at("summary").get<std::string>(),
            j.value("detail", std::string()),
            std::nullopt,
            {}};
  if (j.contains("subject_frame"))
    f.subject_frame = frame_from_json(j.at("subject_frame"));
  if (j.contains("accesses")) {
    for (const nlohmann::json& a : j.at("accesses")) {
      Access access{
          a.at("what").get<std::string>(), a.at("thread").get<int>(), {}};
      for (const nlohmann::json& f2 : a.at("stack"))
        access.stack.push_back(frame_from_json(f2));
      f.accesses.push_back(std::move(access));
    }
  }
  return f;
}

nlohmann::json to_json(const sched::Trace& trace) {
  nlohmann::json rows = nlohmann::json::array();
  for (const sched::TraceRow& row : trace.rows) {
    nlohmann::json j = {{"step", row.step},
                        {"thread", row.thread},
                        {"kind", std::string(sched::to_string(row.kind))},
                        {"text", row.text}};
    if (!row.lock.empty()) j["lock"] = row.lock;
    if (row.shared) j["shared"] = true;
    rows.push_back(std::move(j));
  }
  return {{"threads", trace.thread_count}, {"rows", std::move(rows)}};
}

sched::Trace trace_from_json(const nlohmann::json& j) {
  sched::Trace trace;
  trace.thread_count = j.at("threads").get<int>();
  for (const nlohmann::json& row : j.at("rows")) {
    const std::string kind = row.at("kind").get<std::string>();
    std::optional<sched::TraceKind> k = sched::parse_trace_kind(kind);
    if (!k) {
      throw nlohmann::json::other_error::create(
          501, "unknown trace row kind '" + kind + "'", &row);
    }
    trace.rows.emplace_back(
        row.at("step").get<int>(), row.at("thread").get<int>(), *k,
        row.at("text").get<std::string>(), row.value("lock", std::string()),
        row.value("shared", false));
  }
  return trace;
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
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : observation.findings) findings.push_back(to_json(f));
  nlohmann::json j = {{"event", "run_done"},
                      {"operations", observation.operations},
                      {"findings", findings}};
  if (observation.schedules > 0) {
    j["schedules"] = observation.schedules;
    j["first_failing"] = observation.first_failing;
    j["exhaustive"] = observation.exhaustive;
  }
  if (!observation.schedule.empty()) {
    j["schedule"] = schedule_json(observation.schedule);
    j["trace"] = to_json(observation.schedule.trace);
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void observation_from_json(const nlohmann::json& j, RunObservation& out) {
  out.operations = j.value("operations", 0);
  out.schedules = j.value("schedules", 0);
  out.first_failing = j.value("first_failing", -1);
  out.exhaustive = j.value("exhaustive", false);
  if (j.contains("schedule")) {
    read_schedule_json(j.at("schedule"), out.schedule);
    out.schedule.trace = trace_from_json(j.at("trace"));
  }
  for (const nlohmann::json& f : j.value("findings", nlohmann::json::array()))
    out.findings.push_back(finding_from_json(f));
}

}  // namespace racelab
