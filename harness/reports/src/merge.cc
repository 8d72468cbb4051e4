// Reading gate outputs back and joining shards; see merge.h.
#include "merge.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/json.h"
#include "racelab/runner.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

// A log larger than this is not one the runner wrote.
constexpr std::uintmax_t kMaxLogBytes = 64 << 20;
constexpr std::uintmax_t kMaxResultsBytes = 1ull << 30;

std::string read_text(const fs::path& path, std::uintmax_t limit,
                      const std::string& what) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status))
    throw InputError(absl::StrCat(path.string(), ": ", what, " is missing"));
  if (!fs::is_regular_file(status))
    throw InputError(absl::StrCat(path.string(), ": not a regular file"));
  if (fs::file_size(path, ec) > limit)
    throw InputError(
        absl::StrCat(path.string(), ": larger than ", limit, " bytes"));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof())
    throw InputError(absl::StrCat(path.string(), ": cannot be read"));
  return text.str();
}

Mode mode_from_json(const nlohmann::json& j) {
  const std::string name = j.get<std::string>();
  if (name == "stress") return Mode::kStress;
  if (name == "controlled") return Mode::kControlled;
  throw nlohmann::json::other_error::create(501, "unknown mode " + name, &j);
}

std::string shard_text(const GateOptions& o) {
  return absl::StrCat(o.shard_index, "/", o.shard_count);
}

}  // namespace

GateOutput read_gate_output(const fs::path& dir) {
  const fs::path file = dir / "results.json";
  if (!fs::is_directory(dir))
    throw InputError(absl::StrCat(dir.string(), ": not a folder"));
  const std::string text =
      read_text(file, kMaxResultsBytes, "results.json (a gate's --out folder)");
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded())
    throw InputError(absl::StrCat(file.string(), ": not valid JSON"));
  if (!doc.is_object() || !doc.contains("schema") ||
      doc["schema"] != kResultsSchemaVersion) {
    throw InputError(absl::StrCat(
        file.string(), ": schema ",
        doc.is_object() && doc.contains("schema") ? doc["schema"].dump()
                                                  : std::string("missing"),
        ", but this racelab reads schema ", kResultsSchemaVersion));
  }
  GateOutput out;
  out.dir = dir;
  try {
    GateOptions& o = out.options;
    o.modes.clear();
    for (const nlohmann::json& m : doc.at("modes"))
      o.modes.push_back(mode_from_json(m));
    o.run.runs = doc.at("runs").get<int>();
    o.run.request.seed = doc.at("seed").get<std::uint64_t>();
    apply_gate_settings(doc.at("settings"), o);
    o.shard_index = doc.at("shard").at("index").get<int>();
    o.shard_count = doc.at("shard").at("count").get<int>();
    GateResult& r = out.result;
    r.run_id = doc.at("run_id").get<std::string>();
    r.cases_total = doc.at("cases_total").get<std::size_t>();
    r.interrupted = doc.at("interrupted").get<bool>();
    for (const nlohmann::json& p : doc.at("not_run")) {
      r.not_run.push_back({p.at("family").get<std::string>(),
                           p.at("subject").get<std::string>(),
                           p.at("scenario").get<std::string>(),
                           mode_from_json(p.at("mode")),
                           p.at("expected").get<std::string>(),
                           p.at("index").get<std::size_t>()});
    }
    for (const nlohmann::json& c : doc.at("cases")) {
      CaseResult result = case_result_from_json(c);
      if (c.contains("log")) {
        const std::string log = c.at("log").get<std::string>();
        const fs::path rel = fs::path(log).lexically_normal();
        if (!log.starts_with("logs/") || rel.is_absolute() ||
            log.find("..") != std::string::npos) {
          throw InputError(absl::StrCat(file.string(), ": log '", log,
                                        "' is not a file under logs/"));
        }
        result.first_failure_log =
            read_text(dir / rel, kMaxLogBytes, "the log results.json names");
      }
      r.mismatches += result.mismatch.empty() ? 0 : 1;
      r.cases.push_back(std::move(result));
      r.case_index.push_back(c.at("index").get<std::size_t>());
    }
    if (r.mismatches != doc.at("mismatches").get<int>()) {
      throw InputError(absl::StrCat(file.string(), ": 'mismatches' is ",
                                    doc.at("mismatches").dump(), " but ",
                                    r.mismatches, " cases mismatch"));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(absl::StrCat(file.string(), ": malformed: ", e.what()));
  }
  const GateOptions& o = out.options;
  if (o.shard_count < 1 || o.shard_index < 1 || o.shard_index > o.shard_count)
    throw InputError(absl::StrCat(file.string(), ": shard ", shard_text(o),
                                  " is not K/N with 1 <= K <= N"));
  for (std::size_t index : out.result.case_index) {
    if (index >= out.result.cases_total ||
        index % static_cast<std::size_t>(o.shard_count) !=
            static_cast<std::size_t>(o.shard_index - 1)) {
      throw InputError(absl::StrCat(file.string(), ": case index ", index,
                                    " does not belong to shard ", shard_text(o),
                                    " of ", out.result.cases_total, " cases"));
    }
  }
  return out;
}

GateOutput merge_gate_outputs(const std::vector<GateOutput>& shards) {
  if (shards.empty()) throw InputError("merge: no gate output folders given");
  const GateOutput& first = shards.front();
  const nlohmann::json first_settings = gate_settings(first.options);
  auto differs = [&](const GateOutput& s, const std::string& what,
                     const std::string& a, const std::string& b) {
    throw InputError(absl::StrCat(
        s.dir.string(), ": not a shard of the same gate as ",
        first.dir.string(), " (", what, " ", b, " there, ", a, " here)"));
  };
  std::map<int, const GateOutput*> by_shard;
  for (const GateOutput& s : shards) {
    if (s.result.interrupted) {
      throw InputError(absl::StrCat(
          s.dir.string(), ": that gate was interrupted (",
          s.result.not_run.size(), " cases not run); run its shard again"));
    }
    auto mode_list = [](const GateOptions& o) {
      return absl::StrJoin(o.modes, ",", [](std::string* out, Mode m) {
        absl::StrAppend(out, to_string(m));
      });
    };
    if (mode_list(s.options) != mode_list(first.options))
      differs(s, "modes", mode_list(s.options), mode_list(first.options));
    if (s.options.run.runs != first.options.run.runs) {
      differs(s, "runs", std::to_string(s.options.run.runs),
              std::to_string(first.options.run.runs));
    }
    if (s.options.run.request.seed != first.options.run.request.seed) {
      differs(s, "seed", std::to_string(s.options.run.request.seed),
              std::to_string(first.options.run.request.seed));
    }
    const nlohmann::json settings = gate_settings(s.options);
    for (const auto& [key, value] : first_settings.items()) {
      if (settings.at(key) != value)
        differs(s, key, settings.at(key).dump(), value.dump());
    }
    if (s.options.shard_count != first.options.shard_count) {
      differs(s, "shard count", std::to_string(s.options.shard_count),
              std::to_string(first.options.shard_count));
    }
    if (s.result.cases_total != first.result.cases_total) {
      differs(s, "case count", std::to_string(s.result.cases_total),
              std::to_string(first.result.cases_total));
    }
    auto [at, inserted] = by_shard.emplace(s.options.shard_index, &s);
    if (!inserted) {
      throw InputError(absl::StrCat("shard ", shard_text(s.options),
                                    " given twice: ", at->second->dir.string(),
                                    " and ", s.dir.string()));
    }
  }
  const int count = first.options.shard_count;
  std::vector<std::string> missing;
  for (int k = 1; k <= count; ++k) {
    if (!by_shard.contains(k)) missing.push_back(absl::StrCat(k, "/", count));
  }
  if (!missing.empty()) {
    throw InputError(
        absl::StrCat("merge: shard", missing.size() > 1 ? "s " : " ",
                     absl::StrJoin(missing, ", "),
                     " missing (every shard of the gate is needed)"));
  }

  GateOutput merged;
  merged.dir = first.dir;
  merged.options = first.options;
  merged.options.shard_index = 1;
  merged.options.shard_count = 1;
  GateResult& r = merged.result;
  r.run_id = make_run_id();
  r.cases_total = first.result.cases_total;
  std::vector<std::pair<std::size_t, const CaseResult*>> cases;
  for (const auto& [k, s] : by_shard) {
    r.merged_from.push_back(s->result.run_id);
    for (std::size_t i = 0; i < s->result.cases.size(); ++i)
      cases.emplace_back(s->result.case_index[i], &s->result.cases[i]);
  }
  std::sort(cases.begin(), cases.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].first != i) {
      throw InputError(
          absl::StrCat("merge: the shards' cases do not cover the gate's ",
                       r.cases_total, " cases once (position ", i, " is ",
                       i < cases[i].first ? "missing" : "given twice", ")"));
    }
  }
  if (cases.size() != r.cases_total) {
    throw InputError(absl::StrCat("merge: the shards hold ", cases.size(),
                                  " cases, the gate has ", r.cases_total));
  }
  for (const auto& [index, c] : cases) {
    r.cases.push_back(*c);
    r.case_index.push_back(index);
    r.mismatches += c->mismatch.empty() ? 0 : 1;
  }
  return merged;
}

}  // namespace racelab
