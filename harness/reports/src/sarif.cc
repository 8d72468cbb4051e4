// results.sarif: SARIF 2.1.0 for code scanning (GitHub's upload-sarif, SARIF
// viewers). One run; tool.driver.rules holds one rule per finding kind
// ("racelab/data_race", ...) plus "racelab/expected_finding_missing" for a
// known bug that no run caught. One result per distinct finding, where
// distinct means its partialFingerprints["racelabFinding/v1"] (rule, subject,
// scenario, file, function) differs: the same finding seen in several modes
// is one result. Level: "error" when the finding makes its case a mismatch
// (the case fails and the kind is not one the case expects, or the expected
// finding is missing), "note" when it is the finding the case expects.
#include <signal.h>

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab {
namespace {

using nlohmann::json;

constexpr const char* kSarifSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
    "sarif-schema-2.1.0.json";
constexpr const char* kFingerprintKey = "racelabFinding/v1";
constexpr const char* kSrcRoot = "%SRCROOT%";
constexpr std::size_t kMaxStackFrames = 32;

// Plain-text SARIF message: braces are doubled (placeholders) and square
// brackets and backslashes escaped (embedded links), per SARIF 3.11.5-6.
std::string sarif_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '{':
        out += "{{";
        break;
      case '}':
        out += "}}";
        break;
      case '[':
      case ']':
      case '\\':
        out.push_back('\\');
        out.push_back(c);
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

json artifact_location(const std::string& file) {
  if (report::is_project_file(file)) {
    return {{"uri", report::percent_encode_path(file)},
            {"uriBaseId", kSrcRoot}};
  }
  return {{"uri", absl::StrCat("file://", report::percent_encode_path(file))}};
}

// A SARIF location for a frame; `message` may be empty.
json location(const Frame& frame, const std::string& message) {
  json loc = json::object();
  if (!frame.file.empty()) {
    json physical = {{"artifactLocation", artifact_location(frame.file)}};
    // A finding without a line points at the top of the file, where the
    // subject's header comment names its anti-pattern.
    physical["region"] = {{"startLine", frame.line > 0 ? frame.line : 1}};
    loc["physicalLocation"] = std::move(physical);
  }
  if (!frame.function.empty()) {
    // As written in code; results.json has the symbolizer's full name.
    loc["logicalLocations"] =
        json::array({{{"fullyQualifiedName", report::frame_name(frame)},
                      {"kind", "function"}}});
  }
  if (!message.empty()) loc["message"] = {{"text", sarif_text(message)}};
  return loc;
}

bool same_place(const Frame& a, const Frame& b) {
  return a.file == b.file && a.line == b.line && a.function == b.function;
}

std::string access_title(const Access& a) {
  std::string s = a.what.empty() ? std::string("access") : a.what;
  if (a.thread >= 0) absl::StrAppend(&s, " by thread ", a.thread);
  return s;
}

const char* rule_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::kDataRace:
      return "DataRace";
    case FindingKind::kUseAfterFree:
      return "UseAfterFree";
    case FindingKind::kNotLinearizable:
      return "NotLinearizable";
    case FindingKind::kDeadlock:
      return "Deadlock";
    case FindingKind::kConcurrentMapWrite:
      return "ConcurrentMapWrite";
    case FindingKind::kMapIterationDuringWrite:
      return "MapIterationDuringWrite";
    case FindingKind::kCrash:
      return "Crash";
    case FindingKind::kTimeout:
      return "Timeout";
  }
  return "Unknown";
}

const char* rule_title(FindingKind kind) {
  switch (kind) {
    case FindingKind::kDataRace:
      return "Data race";
    case FindingKind::kUseAfterFree:
      return "Use after free";
    case FindingKind::kNotLinearizable:
      return "Not linearizable";
    case FindingKind::kDeadlock:
      return "Deadlock";
    case FindingKind::kConcurrentMapWrite:
      return "Concurrent map writes";
    case FindingKind::kMapIterationDuringWrite:
      return "Map iteration during write";
    case FindingKind::kCrash:
      return "Crash";
    case FindingKind::kTimeout:
      return "Timeout";
  }
  return "Unknown";
}

json rule(const std::string& id, const std::string& name,
          const std::string& title, const std::string& description,
          const std::string& anchor) {
  return {{"id", id},
          {"name", name},
          {"shortDescription", {{"text", sarif_text(title)}}},
          {"fullDescription", {{"text", sarif_text(description)}}},
          {"helpUri", report::docs_url(absl::StrCat("findings.md#", anchor))},
          {"help",
           {{"text", sarif_text(description)},
            {"markdown", absl::StrCat("**", title, "**: ", description)}}},
          {"defaultConfiguration", {{"level", "error"}}},
          {"properties",
           {{"tags", json::array({"concurrency", "racelab"})},
            {"precision", "high"},
            {"problem.severity", "error"}}}};
}

// One result being assembled; the same finding may come from several modes.
struct Pending {
  std::string rule;
  int rule_index = 0;
  bool error = false;
  const CaseResult* first_case = nullptr;
  const Finding* finding = nullptr;  // null for a missed expectation
  Frame primary;
  std::vector<std::string> modes;
  int runs = 0;
  int total_runs = 0;
  // Per case that saw it, in its mode's unit: "stress: 3/20 runs",
  // "controlled: 1/1 searches".
  std::vector<std::string> seen_in;
  std::string mismatch;
};

json build_result(const Pending& p, const std::string& fingerprint) {
  const CaseResult& c = *p.first_case;
  const std::string modes = absl::StrJoin(p.modes, ", ");
  std::string text;
  if (p.finding != nullptr) {
    text = absl::StrCat(p.finding->summary, " (", to_string(p.finding->kind),
                        " in ", c.subject, " x ", c.scenario, "; ",
                        absl::StrJoin(p.seen_in, ", "), "; expected ",
                        c.expected, ")");
  } else {
    text = absl::StrCat("expected ", c.expected, " in ", c.subject, " x ",
                        c.scenario, " (", modes, ") but no run caught it");
  }
  if (p.error && !p.mismatch.empty())
    absl::StrAppend(&text, ". Mismatch: ", p.mismatch);

  json result = {{"ruleId", p.rule},
                 {"ruleIndex", p.rule_index},
                 {"kind", "fail"},
                 {"level", p.error ? "error" : "note"},
                 {"message", {{"text", sarif_text(text)}}},
                 {"locations", json::array({location(p.primary, "")})},
                 {"partialFingerprints", {{kFingerprintKey, fingerprint}}}};
  json properties = {{"subject", c.subject},   {"scenario", c.scenario},
                     {"family", c.family},     {"modes", p.modes},
                     {"expected", c.expected}, {"observed", c.observed()},
                     {"runs", p.runs},         {"totalRuns", p.total_runs},
                     {"mismatch", p.error}};
  if (p.finding != nullptr) {
    const Finding& f = *p.finding;
    properties["oracle"] = f.oracle;
    properties["summary"] = f.summary;
    json related = json::array();
    json stacks = json::array();
    std::vector<Frame> seen = {p.primary};
    for (const Access& a : f.accesses) {
      for (const Frame& frame : a.stack) {
        if (!report::is_project_file(frame.file)) continue;
        const bool dup =
            std::any_of(seen.begin(), seen.end(),
                        [&](const Frame& s) { return same_place(s, frame); });
        if (!dup) {
          json loc = location(frame, access_title(a));
          loc["id"] = static_cast<int>(related.size()) + 1;
          related.push_back(std::move(loc));
          seen.push_back(frame);
        }
        break;  // only the first project frame of each stack
      }
      if (a.stack.empty()) continue;
      json frames = json::array();
      for (std::size_t i = 0; i < a.stack.size() && i < kMaxStackFrames; ++i) {
        json frame = {{"location", location(a.stack[i], "")}};
        if (a.thread >= 0) frame["threadId"] = a.thread;
        frames.push_back(std::move(frame));
      }
      stacks.push_back({{"message", {{"text", sarif_text(access_title(a))}}},
                        {"frames", std::move(frames)}});
    }
    if (!related.empty()) result["relatedLocations"] = std::move(related);
    if (!stacks.empty()) result["stacks"] = std::move(stacks);
  }
  if (!c.schedule_file.empty()) properties["scheduleFile"] = c.schedule_file;
  result["properties"] = std::move(properties);
  return result;
}

}  // namespace

nlohmann::json sarif_log(const GateResult& result, const GateOptions& options) {
  json rules = json::array();
  std::map<std::string, int> rule_index;
  for (FindingKind kind : all_finding_kinds()) {
    const std::string id = report::rule_id(kind);
    rule_index[id] = static_cast<int>(rules.size());
    rules.push_back(rule(id, rule_name(kind), rule_title(kind),
                         report::describe_kind(kind), to_string(kind)));
  }
  rule_index[report::kMissedRuleId] = static_cast<int>(rules.size());
  rules.push_back(
      rule(report::kMissedRuleId, "ExpectedFindingMissing",
           "Expected finding missing",
           "A case whose subject has a known bug ended clean (or with other "
           "findings only) in every run: the gate lost its power to catch "
           "the bug, which fails the gate as much as a false alarm does.",
           "expected_finding_missing"));

  // Ordered by first appearance, keyed by fingerprint.
  std::vector<std::string> order;
  std::map<std::string, Pending> pending;
  auto add = [&](const std::string& fingerprint, Pending p,
                 const CaseResult& c) {
    auto [it, inserted] = pending.try_emplace(fingerprint, std::move(p));
    if (inserted) order.push_back(fingerprint);
    Pending& q = it->second;
    const std::string mode = to_string(c.mode);
    if (std::find(q.modes.begin(), q.modes.end(), mode) == q.modes.end()) {
      q.modes.push_back(mode);
    }
    return &q;
  };

  for (const CaseResult& c : result.cases) {
    const bool mismatch = !c.mismatch.empty();
    for (const AggregatedFinding& a : c.findings) {
      const std::string id = report::rule_id(a.finding.kind);
      const Frame primary = report::primary_frame(c, a.finding);
      const std::string fp = report::finding_fingerprint(
          id, c.subject, c.scenario, primary.file, primary.function);
      Pending p;
      p.rule = id;
      p.rule_index = rule_index[id];
      p.first_case = &c;
      p.finding = &a.finding;
      p.primary = primary;
      Pending* q = add(fp, std::move(p), c);
      q->runs += a.runs;
      q->total_runs += c.runs;
      q->seen_in.push_back(absl::StrCat(racelab::to_string(c.mode), ": ",
                                        report::runs_text(c, a.runs)));
      if (mismatch && !report::is_expected_kind(c, a.finding.kind)) {
        q->error = true;
        if (q->mismatch.empty()) q->mismatch = c.mismatch;
      }
    }
    if (mismatch &&
        std::string_view(report::mismatch_type(c)) == "missed_finding") {
      Frame primary;
      primary.file = report::subject_source(c.subject);
      const std::string fp = report::finding_fingerprint(
          report::kMissedRuleId, c.subject, c.scenario, primary.file,
          primary.function);
      Pending p;
      p.rule = report::kMissedRuleId;
      p.rule_index = rule_index[report::kMissedRuleId];
      p.first_case = &c;
      p.primary = primary;
      Pending* q = add(fp, std::move(p), c);
      q->error = true;
      q->total_runs += c.runs;
      if (q->mismatch.empty()) q->mismatch = c.mismatch;
    }
  }

  json results = json::array();
  for (const std::string& fp : order)
    results.push_back(build_result(pending.at(fp), fp));

  json modes = json::array();
  for (Mode m : report::report_modes(result.cases, options.modes)) {
    modes.push_back(to_string(m));
  }
  // An interrupted gate did not complete: code scanning must not take its
  // results as the whole picture.
  json invocation = {
      {"executionSuccessful", !result.interrupted},
      {"properties",
       {{"cases", result.cases.size()}, {"mismatches", result.mismatches}}}};
  if (result.interrupted) {
    invocation["properties"]["notRun"] = result.not_run.size();
    if (result.interrupt_signal == SIGINT)
      invocation["exitSignalName"] = "SIGINT";
    if (result.interrupt_signal == SIGTERM)
      invocation["exitSignalName"] = "SIGTERM";
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", "racelab"},
                  {"informationUri", report::repository_url()},
                  {"rules", std::move(rules)}}}}},
              {"invocations", json::array({invocation})},
              {"results", std::move(results)},
              {"properties",
               {{"modes", modes},
                {"ran", report::what_ran(result.cases, options)},
                {"seed", options.run.request.seed}}}};
  if (!result.run_id.empty()) run["properties"]["runId"] = result.run_id;
  if (options.shard_count > 1) {
    run["properties"]["shard"] = {{"index", options.shard_index},
                                  {"count", options.shard_count}};
  }
  if (!result.merged_from.empty())
    run["properties"]["mergedFrom"] = result.merged_from;
#ifdef RACELAB_SOURCE_DIR
  run["originalUriBaseIds"] = {
      {kSrcRoot,
       {{"uri",
         absl::StrCat("file://",
                      report::percent_encode_path(RACELAB_SOURCE_DIR), "/")}}}};
#endif
  return {{"$schema", kSarifSchema},
          {"version", "2.1.0"},
          {"runs", json::array({run})}};
}

}  // namespace racelab
