// Running every case, in parallel, and judging the whole table.
#include "racelab/gate.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "racelab/json.h"
#include "racelab/report.h"

namespace racelab {

int usable_jobs(int requested) {
  // Two children per core keep the cores busy while some wait on I/O; more
  // only slow every run down. A TSan child needs about 200 MB (shadow memory,
  // symbolizer); leave room for that too.
  constexpr long long kChildBytes = 256ll << 20;
  const long cores = std::max(1l, sysconf(_SC_NPROCESSORS_ONLN));
  long long memory_jobs = 1ll << 20;
  if (std::ifstream meminfo("/proc/meminfo"); meminfo) {
    std::string key;
    long long kib = 0;
    while (meminfo >> key >> kib) {
      if (key == "MemAvailable:") {
        memory_jobs = std::max(1ll, kib * 1024 / kChildBytes);
        break;
      }
      meminfo.ignore(256, '\n');
    }
  }
  return static_cast<int>(std::max(
      1ll, std::min({static_cast<long long>(requested),
                     static_cast<long long>(2 * cores), memory_jobs})));
}

GateResult run_gate(const Registry& registry, const GateOptions& options,
                    std::ostream& progress) {
  struct Job {
    const CaseSpec* spec;
    Mode mode;
  };
  std::vector<Job> jobs;
  for (Mode mode : options.modes) {
    for (const CaseSpec& spec : registry.cases()) {
      if (spec.subject.find(options.subject_filter) == std::string::npos)
        continue;
      if (spec.scenario.find(options.scenario_filter) == std::string::npos)
        continue;
      if (!spec.runs_in(mode)) continue;
      jobs.push_back({&spec, mode});
    }
  }
  GateResult result;
  result.cases.resize(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex progress_mu;
  size_t finished = 0;
  int cases_with_findings = 0;
  double runs_done = 0, schedules_done = 0;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto worker = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      RunOptions run = options.run;
      run.mode = jobs[i].mode;
      if (run.mode == Mode::kControlled) run.runs = options.controlled_runs;
      const Expectation* e = registry.find_expectation(
          jobs[i].spec->subject, jobs[i].spec->scenario, run.mode);
      try {
        result.cases[i] = run_case(*jobs[i].spec, e, run);
      } catch (const std::exception& error) {
        // The harness could not run the case (it could not start a child, say):
        // record it and let the gate fail with status 3 once all workers end.
        std::lock_guard lock(progress_mu);
        if (result.harness_error.empty()) {
          result.harness_error =
              absl::StrCat(jobs[i].spec->subject, " x ", jobs[i].spec->scenario,
                           ": ", error.what());
        }
        continue;
      }
      std::lock_guard lock(progress_mu);
      const CaseResult& c = result.cases[i];
      ++finished;
      runs_done += c.runs;
      schedules_done += c.schedules;
      cases_with_findings += c.runs_with_finding > 0;
      if (!options.show_progress) continue;
      const double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      progress << absl::StrFormat(
          "[%3d/%d] %-4s %-32s %-27s %-10s %2d/%-2d %s\n"
          "        %d cases with findings so far; %.0f runs/s, %.0f "
          "schedules/s\n",
          finished, jobs.size(), c.mismatch.empty() ? "ok" : "FAIL", c.subject,
          c.scenario, to_string(c.mode), c.runs_with_finding, c.runs,
          c.observed(), cases_with_findings, runs_done / seconds,
          schedules_done / seconds);
      progress.flush();
    }
  };
  std::vector<std::thread> workers;
  const int job_count = usable_jobs(options.jobs);
  if (job_count < options.jobs) {
    progress << "racelab: --jobs " << options.jobs << " capped to " << job_count
             << " (what this machine's cores and memory hold)\n";
  }
  for (int w = 0; w < job_count; ++w) workers.emplace_back(worker);
  for (std::thread& t : workers) t.join();
  for (const CaseResult& c : result.cases)
    result.mismatches += c.mismatch.empty() ? 0 : 1;
  return result;
}

void print_gate_table(const GateResult& result, std::ostream& out) {
  out << absl::StrFormat("%-32s %-27s %-10s %-28s %-28s %s\n", "subject",
                         "scenario", "mode", "expected", "observed",
                         "runs caught");
  for (const CaseResult& c : result.cases) {
    out << absl::StrFormat("%-32s %-27s %-10s %-28s %-28s %d/%d%s\n", c.subject,
                           c.scenario, to_string(c.mode), c.expected,
                           c.observed(), c.runs_with_finding, c.runs,
                           c.mismatch.empty() ? "" : "  MISMATCH");
  }
  for (const CaseResult& c : result.cases) {
    if (!c.mismatch.empty()) {
      out << "MISMATCH " << c.subject << " x " << c.scenario << " ("
          << to_string(c.mode) << "): " << c.mismatch << "\n";
    }
  }
  out << absl::StrFormat("%d cases, %d mismatches\n", result.cases.size(),
                         result.mismatches);
}

void write_results_json(const GateResult& result, const GateOptions& options,
                        const std::string& out_dir) {
  namespace fs = std::filesystem;
  fs::create_directories(out_dir);
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : result.cases) cases.push_back(to_json(c));
  nlohmann::json modes = nlohmann::json::array();
  for (Mode m : options.modes) modes.push_back(std::string(to_string(m)));
  nlohmann::json doc = {{"schema", kResultsSchemaVersion},
                        {"tool", "racelab"},
                        {"modes", modes},
                        {"runs", options.run.runs},
                        {"seed", options.run.seed},
                        {"cases", cases},
                        {"mismatches", result.mismatches}};
  // Write to a temporary file and rename, so a reader never sees half a file.
  const fs::path final_path = fs::path(out_dir) / "results.json";
  const fs::path tmp_path = fs::path(out_dir) / ".results.json.tmp";
  {
    std::ofstream out(tmp_path);
    out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    if (!out)
      throw std::runtime_error(
          absl::StrCat("cannot write ", tmp_path.string()));
  }
  fs::rename(tmp_path, final_path);
  const fs::path logs = fs::path(out_dir) / "logs";
  for (const CaseResult& c : result.cases) {
    if (c.first_failure_log.empty()) continue;
    fs::create_directories(logs);
    std::string name = absl::StrCat(c.subject, "__", c.scenario, ".",
                                    to_string(c.mode), ".log");
    std::replace(name.begin(), name.end(), '/', '_');
    std::ofstream(logs / name) << c.first_failure_log;
  }
  write_reports(result, options, out_dir);
}

}  // namespace racelab
