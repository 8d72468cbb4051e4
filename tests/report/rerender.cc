// racelab_rerender RESULTS_JSON OUT_DIR: writes junit.xml, results.sarif,
// summary.md and index.html again from a gate's results.json, with the report
// writers of this build. It measures the writers on a recorded gate (the size
// of index.html of a full `gate --mode all`) without running the gate again.
// Not installed; reads what write_results_json() writes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "racelab/gate.h"
#include "racelab/json.h"
#include "racelab/report.h"

namespace racelab {
namespace {

Mode mode_of(const std::string& name) {
  if (name == "stress") return Mode::kStress;
  if (name == "controlled") return Mode::kControlled;
  throw std::runtime_error("unknown mode '" + name + "'");
}

CaseResult case_from_json(const nlohmann::json& j) {
  CaseResult c;
  c.family = j.at("family");
  c.subject = j.at("subject");
  c.scenario = j.at("scenario");
  c.mode = mode_of(j.at("mode"));
  c.expected = j.at("expected");
  c.mismatch = j.value("mismatch", std::string());
  c.runs = j.at("runs");
  c.runs_with_finding = j.at("runs_with_finding");
  c.seconds = j.value("seconds", 0.0);
  c.histogram = racelab::histogram_from_json(j.at("histogram"));
  std::set<FindingKind> kinds;
  for (const nlohmann::json& f : j.at("findings")) {
    AggregatedFinding a{finding_from_json(f), f.value("runs", 0)};
    kinds.insert(a.finding.kind);
    c.findings.push_back(std::move(a));
  }
  c.kinds.assign(kinds.begin(), kinds.end());
  c.schedules = j.value("schedules", 0);
  c.first_failing = j.value("first_failing_schedule", -1);
  if (j.contains("trace")) c.schedule.trace = trace_from_json(j["trace"]);
  if (j.contains("schedule")) {
    c.schedule.decisions =
        j["schedule"].at("decisions").get<std::vector<int>>();
    c.schedule.preemptions = j["schedule"].at("preemptions");
    c.schedule.program =
        j["schedule"].at("program").get<std::vector<std::string>>();
  }
  c.schedule_file = j.value("schedule_file", std::string());
  return c;
}

int rerender(const std::string& results_json, const std::string& out_dir) {
  std::ifstream in(results_json);
  if (!in) {
    std::fprintf(stderr, "racelab_rerender: cannot read %s\n",
                 results_json.c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  GateResult result;
  GateOptions options;
  options.modes.clear();
  for (const nlohmann::json& m : doc.at("modes"))
    options.modes.push_back(mode_of(m));
  options.run.runs = doc.at("runs");
  options.run.request.seed = doc.at("seed");
  for (const nlohmann::json& c : doc.at("cases"))
    result.cases.push_back(case_from_json(c));
  result.mismatches = doc.at("mismatches");
  std::filesystem::create_directories(out_dir);
  write_reports(result, options, out_dir);
  return 0;
}

}  // namespace
}  // namespace racelab

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s RESULTS_JSON OUT_DIR\n", argv[0]);
    return 2;
  }
  try {
    return racelab::rerender(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "racelab_rerender: %s: %s\n", argv[1], e.what());
    return 2;
  }
}
