// RunObservation <-> JSON (observation_json.h): the one result format of
// every child and of results.json's findings and traces.
#include "racelab/observation_json.h"

#include <optional>
#include <stdexcept>

namespace racelab {
namespace {

using nlohmann::json;

[[noreturn]] void malformed(const std::string& what, const json& j) {
  throw json::other_error::create(501, what, &j);
}

json schedule_to_json(const RecordedSchedule& s) {
  json j = {{"program", s.program},
            {"decisions", s.decisions},
            {"preemptions", s.preemptions},
            {"status", static_cast<int>(s.status)},
            {"trace", to_json(s.trace)}};
  if (s.memory_model) j["memory_model"] = true;
  return j;
}

RecordedSchedule schedule_from_json(const json& j) {
  RecordedSchedule s;
  s.program = j.at("program").get<std::vector<std::string>>();
  s.decisions = j.at("decisions").get<std::vector<int>>();
  s.preemptions = j.at("preemptions").get<int>();
  s.memory_model = j.value("memory_model", false);
  const int status = j.value("status", 0);
  if (status < 0 ||
      status > static_cast<int>(sched::RunResult::Status::kLengthLimit)) {
    malformed("schedule status out of range", j);
  }
  s.status = static_cast<sched::RunResult::Status>(status);
  if (j.contains("trace")) s.trace = trace_from_json(j.at("trace"));
  return s;
}

}  // namespace

json to_json(const Frame& f) {
  return {{"function", f.function},
          {"file", f.file},
          {"line", f.line},
          {"origin", to_string(f.origin)}};
}

Frame frame_from_json(const json& j) {
  Frame f{j.at("function").get<std::string>(), j.at("file").get<std::string>(),
          j.at("line").get<int>()};
  // Frames written before origins were recorded are judged by their file.
  std::optional<FrameOrigin> origin;
  if (j.contains("origin"))
    origin = parse_frame_origin(j.at("origin").get<std::string>());
  f.origin = origin ? *origin : frame_origin_of(f.file);
  return f;
}

json to_json(const Finding& finding) {
  json j = {{"kind", std::string(to_string(finding.kind))},
            {"oracle", std::string(to_string(finding.oracle))},
            {"summary", finding.summary}};
  if (!finding.detail.empty()) j["detail"] = finding.detail;
  if (finding.subject_frame)
    j["subject_frame"] = to_json(*finding.subject_frame);
  if (!finding.accesses.empty()) {
    json accesses = json::array();
    for (const Access& a : finding.accesses) {
      json stack = json::array();
      for (const Frame& f : a.stack) stack.push_back(to_json(f));
      json access = {{"what", a.what}, {"thread", a.thread}, {"stack", stack}};
      if (a.tsan_tid >= 0) access["tsan_tid"] = a.tsan_tid;
      accesses.push_back(std::move(access));
    }
    j["accesses"] = accesses;
  }
  return j;
}

Finding finding_from_json(const json& j) {
  std::optional<FindingKind> kind =
      parse_finding_kind(j.at("kind").get<std::string>());
  if (!kind) malformed("unknown finding kind", j);
  std::optional<Oracle> oracle =
      parse_oracle(j.at("oracle").get<std::string>());
  if (!oracle) malformed("unknown oracle", j);
  Finding f{*kind,
            *oracle,
            j.at("summary").get<std::string>(),
            j.value("detail", std::string()),
            std::nullopt,
            {}};
  if (j.contains("subject_frame"))
    f.subject_frame = frame_from_json(j.at("subject_frame"));
  if (j.contains("accesses")) {
    for (const json& a : j.at("accesses")) {
      Access access{
          a.at("what").get<std::string>(), a.at("thread").get<int>(), {}};
      for (const json& frame : a.at("stack"))
        access.stack.push_back(frame_from_json(frame));
      access.tsan_tid = a.value("tsan_tid", -1);
      f.accesses.push_back(std::move(access));
    }
  }
  return f;
}

json to_json(const sched::Trace& trace) {
  json rows = json::array();
  for (const sched::TraceRow& row : trace.rows) {
    json j = {{"step", row.step},
              {"thread", row.thread},
              {"kind", std::string(sched::to_string(row.kind))},
              {"text", row.text}};
    if (!row.lock.empty()) j["lock"] = row.lock;
    if (row.shared) j["shared"] = true;
    rows.push_back(std::move(j));
  }
  return {{"threads", trace.thread_count}, {"rows", std::move(rows)}};
}

sched::Trace trace_from_json(const json& j) {
  sched::Trace trace;
  trace.thread_count = j.at("threads").get<int>();
  for (const json& row : j.at("rows")) {
    const std::string kind = row.at("kind").get<std::string>();
    std::optional<sched::TraceKind> k = sched::parse_trace_kind(kind);
    if (!k) malformed("unknown trace row kind '" + kind + "'", row);
    trace.rows.emplace_back(
        row.at("step").get<int>(), row.at("thread").get<int>(), *k,
        row.at("text").get<std::string>(), row.value("lock", std::string()),
        row.value("shared", false));
  }
  return trace;
}

json to_json(const RunObservation& o) {
  json findings = json::array();
  for (const Finding& f : o.findings) findings.push_back(to_json(f));
  json j = {{"findings", std::move(findings)}, {"operations", o.operations}};
  auto put = [&](const char* key, const auto& value, const auto& unset) {
    if (value != unset) j[key] = value;
  };
  put("runs", o.runs, 0);
  put("schedules", o.schedules, 0);
  put("first_failing", o.first_failing, -1);
  if (!o.schedule.empty()) j["schedule"] = schedule_to_json(o.schedule);
  put("replay_diverged", o.replay_diverged, false);
  put("more_schedules", o.more_schedules, false);
  put("exhaustive", o.exhaustive, false);
  put("interrupted", o.interrupted, false);
  put("shrink_runs", o.shrink_runs, 0);
  put("fairness_cut", o.fairness_cut, false);
  put("length_cut", o.length_cut, std::int64_t{0});
  put("inconclusive_linearizability", o.inconclusive_linearizability, 0);
  put("inconclusive_detail", o.inconclusive_detail, std::string());
  put("suppressed", o.suppressed, 0);
  put("suppressions_used", o.suppressions_used, std::vector<std::string>());
  put("inner_points", o.inner_points, 0L);
  put("warnings", o.warnings, std::vector<std::string>());
  put("unmodelled_blocks", o.unmodelled_blocks, 0);
  put("first_block", o.first_block, std::string());
  put("log", o.log, std::string());
  put("schedule_file", o.schedule_file, std::string());
  put("message", o.message, std::string());
  put("killed_from_outside", o.killed_from_outside, 0);
  return j;
}

RunObservation observation_from_json(const json& j) {
  RunObservation o;
  for (const json& f : j.at("findings"))
    o.findings.push_back(finding_from_json(f));
  o.operations = j.at("operations").get<int>();
  o.runs = j.value("runs", 0);
  o.schedules = j.value("schedules", 0);
  o.first_failing = j.value("first_failing", -1);
  if (j.contains("schedule")) o.schedule = schedule_from_json(j.at("schedule"));
  o.replay_diverged = j.value("replay_diverged", false);
  o.more_schedules = j.value("more_schedules", false);
  o.exhaustive = j.value("exhaustive", false);
  o.interrupted = j.value("interrupted", false);
  o.shrink_runs = j.value("shrink_runs", 0);
  o.fairness_cut = j.value("fairness_cut", false);
  o.length_cut = j.value("length_cut", std::int64_t{0});
  o.inconclusive_linearizability = j.value("inconclusive_linearizability", 0);
  o.inconclusive_detail = j.value("inconclusive_detail", std::string());
  o.suppressed = j.value("suppressed", 0);
  o.suppressions_used =
      j.value("suppressions_used", std::vector<std::string>());
  o.inner_points = j.value("inner_points", 0L);
  o.warnings = j.value("warnings", std::vector<std::string>());
  o.unmodelled_blocks = j.value("unmodelled_blocks", 0);
  o.first_block = j.value("first_block", std::string());
  o.log = j.value("log", std::string());
  o.schedule_file = j.value("schedule_file", std::string());
  o.message = j.value("message", std::string());
  o.killed_from_outside = j.value("killed_from_outside", 0);
  return o;
}

std::string encode_observation(const RunObservation& observation) {
  // A message or a log may quote the input: bytes that are not UTF-8 must
  // not make the result itself fail.
  return to_json(observation)
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

RunObservation decode_observation(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw std::runtime_error("a child's result is not a JSON object");
  }
  try {
    return observation_from_json(j);
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("a child's result is malformed: ") +
                             e.what());
  }
}

}  // namespace racelab
