// JSON encoding of findings and case results, and the result channel lines.
#include "racelab/json.h"

#include "result_channel.h"

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

nlohmann::json to_json(const Finding& finding) {
  nlohmann::json j = {{"kind", std::string(to_string(finding.kind))},
                      {"oracle", finding.oracle},
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
  Finding f{*kind,
            j.at("oracle").get<std::string>(),
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

nlohmann::json to_json(const CaseResult& r) {
  nlohmann::json findings = nlohmann::json::array();
  for (const AggregatedFinding& a : r.findings) {
    nlohmann::json j = to_json(a.finding);
    j["runs"] = a.runs;
    findings.push_back(std::move(j));
  }
  nlohmann::json trace = nlohmann::json::array();
  for (const TraceLine& row : r.trace) {
    trace.push_back({{"step", row.step},
                     {"thread", row.thread},
                     {"kind", row.kind},
                     {"text", row.text}});
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
                      {"histogram", r.histogram},
                      {"findings", findings}};
  if (r.mode == Mode::kControlled) {
    j["schedules"] = r.schedules;
    j["first_failing_schedule"] = r.first_failing;
  }
  if (!r.trace.empty()) {
    j["trace"] = {{"threads", r.trace_threads}, {"rows", trace}};
    j["schedule"] = {{"decisions", r.schedule.decisions},
                     {"preemptions", r.schedule.preemptions},
                     {"program", r.schedule.program}};
    if (!r.schedule_file.empty()) j["schedule_file"] = r.schedule_file;
  }
  return j;
}

std::string event_line(const std::string& event, const std::string& message) {
  return nlohmann::json{{"event", event}, {"message", message}}.dump();
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
  }
  if (!observation.schedule.decisions.empty() ||
      !observation.schedule.program.empty()) {
    j["schedule"] = {{"program", observation.schedule.program},
                     {"decisions", observation.schedule.decisions},
                     {"preemptions", observation.schedule.preemptions}};
    nlohmann::json rows = nlohmann::json::array();
    for (const TraceLine& row : observation.trace) {
      rows.push_back({{"step", row.step},
                      {"thread", row.thread},
                      {"kind", row.kind},
                      {"text", row.text}});
    }
    j["trace"] = {{"threads", observation.trace_threads},
                  {"rows", rows},
                  {"table", observation.trace_table}};
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace racelab
