// results.json: the machine-readable result of a gate run, and the writer
// that puts it, the failure logs and every other report into one folder.
#include <signal.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "racelab/atomic_file.h"
#include "racelab/gate.h"
#include "racelab/json.h"
#include "racelab/report.h"

namespace racelab {

namespace {

nlohmann::json planned_json(const PlannedCase& p) {
  nlohmann::json j = {
      {"family", p.family},     {"subject", p.subject},
      {"scenario", p.scenario}, {"mode", std::string(to_string(p.mode))},
      {"expected", p.expected}, {"index", p.index}};
  if (!p.source.empty()) j["source"] = p.source;
  return j;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return absl::StrCat("signal ", sig);
  }
}

}  // namespace

nlohmann::json results_document(const GateResult& result,
                                const GateOptions& options) {
  nlohmann::json cases = nlohmann::json::array();
  for (std::size_t i = 0; i < result.cases.size(); ++i) {
    const CaseResult& c = result.cases[i];
    nlohmann::json j = to_json(c);
    j["index"] = i < result.case_index.size() ? result.case_index[i] : i;
    if (!c.first_failure_log.empty())
      j["log"] = absl::StrCat("logs/", report::log_file_name(c));
    cases.push_back(std::move(j));
  }
  nlohmann::json modes = nlohmann::json::array();
  for (Mode m : options.modes) modes.push_back(std::string(to_string(m)));
  nlohmann::json not_run = nlohmann::json::array();
  for (const PlannedCase& p : result.not_run)
    not_run.push_back(planned_json(p));
  nlohmann::json doc = {
      {"schema", kResultsSchemaVersion},
      {"tool", "racelab"},
      {"run_id", result.run_id},
      {"modes", modes},
      {"runs", options.run.runs},
      {"seed", options.run.request.seed},
      {"settings", gate_settings(options)},
      {"shard",
       {{"index", options.shard_index}, {"count", options.shard_count}}},
      {"cases_total", std::max(result.cases_total,
                               result.cases.size() + result.not_run.size())},
      {"interrupted", result.interrupted},
      {"cases", cases},
      {"not_run", not_run},
      {"mismatches", result.mismatches}};
  if (result.interrupted && result.interrupt_signal != 0)
    doc["interrupted_by"] = signal_name(result.interrupt_signal);
  if (!result.merged_from.empty()) doc["merged_from"] = result.merged_from;
  if (!options.identity.is_null()) doc["identity"] = options.identity;
  return doc;
}

void write_results_json(const GateResult& given, const GateOptions& options,
                        const std::string& out_dir) {
  namespace fs = std::filesystem;
  // Every set names its run, in every file.
  GateResult with_id;
  if (given.run_id.empty()) {
    with_id = given;
    with_id.run_id = make_run_id();
  }
  const GateResult& result = given.run_id.empty() ? with_id : given;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    throw OutputError(
        absl::StrCat("cannot create '", out_dir, "': ", ec.message()));
  }
  const nlohmann::json doc = results_document(result, options);
  write_file_atomically(
      fs::path(out_dir) / "results.json",
      doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  const fs::path logs = fs::path(out_dir) / "logs";
  for (const CaseResult& c : result.cases) {
    if (c.first_failure_log.empty()) continue;
    fs::create_directories(logs, ec);
    if (ec) {
      throw OutputError(
          absl::StrCat("cannot create '", logs.string(), "': ", ec.message()));
    }
    write_file_atomically(logs / report::log_file_name(c), c.first_failure_log);
  }
  write_reports(result, options, out_dir);
}

}  // namespace racelab
