// racelab_rerender RESULTS_JSON OUT_DIR: writes junit.xml, results.sarif,
// summary.md and index.html again from a gate's results.json, with the report
// writers of this build. It measures the writers on a recorded gate (the size
// of index.html of a full `gate --mode all`) without running the gate again.
// Not installed; reads what write_results_json() writes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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
    result.cases.push_back(case_result_from_json(c));
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
