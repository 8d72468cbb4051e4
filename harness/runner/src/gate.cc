// Running every case, in parallel, and judging the whole table.
#include "racelab/gate.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <string_view>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "racelab/atomic_file.h"
#include "racelab/defaults.h"
#include "racelab/fnv1a.h"
#include "racelab/json.h"
#include "racelab/progress_line.h"

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

std::string make_run_id() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char when[32];
  std::strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &utc);
  std::random_device random;
  const std::uint64_t bits =
      (static_cast<std::uint64_t>(random()) << 32) ^ random();
  return absl::StrFormat("%s-%016x", when, bits);
}

namespace {

// The gate's case list, every shard: each mode in order, each in the
// registry's case order, filtered.
std::vector<std::pair<const CaseSpec*, Mode>> gate_case_list(
    const Registry& registry, const GateOptions& options) {
  std::vector<std::pair<const CaseSpec*, Mode>> list;
  for (Mode mode : options.modes) {
    for (const CaseSpec& spec : registry.cases()) {
      if (spec.subject.find(options.subject_filter) == std::string::npos)
        continue;
      if (spec.scenario.find(options.scenario_filter) == std::string::npos)
        continue;
      if (!spec.runs_in(mode)) continue;
      list.emplace_back(&spec, mode);
    }
  }
  return list;
}

}  // namespace

std::size_t count_gate_cases(const Registry& registry,
                             const GateOptions& options) {
  return gate_case_list(registry, options).size();
}

GateResult run_gate(const Registry& registry, const GateOptions& options,
                    std::ostream& progress) {
  struct Job {
    const CaseSpec* spec;
    Mode mode;
    std::size_t index;  // in the whole case list
  };
  GateResult result;
  result.run_id = make_run_id();
  std::vector<Job> jobs;
  const std::vector<std::pair<const CaseSpec*, Mode>> list =
      gate_case_list(registry, options);
  const std::size_t shards =
      static_cast<std::size_t>(std::max(1, options.shard_count));
  const std::size_t shard =
      static_cast<std::size_t>(std::max(1, options.shard_index) - 1);
  for (std::size_t index = 0; index < list.size(); ++index) {
    if (index % shards == shard)
      jobs.push_back({list[index].first, list[index].second, index});
  }
  result.cases_total = list.size();
  auto stop = [&] {
    return options.stop_requested && options.stop_requested();
  };
  std::vector<CaseResult> cases(jobs.size());
  std::vector<char> finished_case(jobs.size(), 0);
  std::atomic<size_t> next{0};
  std::mutex progress_mu;
  size_t finished = 0;
  int cases_with_findings = 0;
  double runs_done = 0, schedules_done = 0;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  // Each worker reaps every child it starts before it takes its next case,
  // and so before it ends (run_batch_in_child): a child's death signal
  // follows the thread that forked it, so a worker that ended first would
  // kill its child.
  auto worker = [&] {
    for (size_t i = next++; i < jobs.size() && !stop(); i = next++) {
      RunOptions run = options.run;
      run.request.mode = jobs[i].mode;
      if (run.request.mode == Mode::kControlled)
        run.runs = options.controlled_runs;
      const Expectation* e = registry.find_expectation(
          jobs[i].spec->subject, jobs[i].spec->scenario, run.request.mode);
      if (e != nullptr && asks_to_verify(*e, run.request.mode)) {
        // A row that must be verified is searched exhaustively: dfs with
        // partial-order reduction, within the preemption bound, with the
        // budget a proof needs (random and pct stay for generated programs).
        run.request.strategy = "dfs";
        run.request.budget =
            std::max(run.request.budget, defaults::kVerifyBudget);
      }
      try {
        cases[i] = run_case(*jobs[i].spec, e, run);
      } catch (const std::exception& error) {
        // The harness could not run the case (it could not start a child, say):
        // record it and let the gate fail with status 3 once all workers end.
        // After a stop, a child that could not start is the stop's doing.
        if (stop()) break;
        std::lock_guard lock(progress_mu);
        if (result.harness_error.empty()) {
          result.harness_error =
              absl::StrCat(jobs[i].spec->subject, " x ", jobs[i].spec->scenario,
                           ": ", error.what());
        }
        continue;
      }
      // A case still running when the stop came may have lost its children:
      // its verdict is not one.
      if (stop()) break;
      std::lock_guard lock(progress_mu);
      finished_case[i] = 1;
      const CaseResult& c = cases[i];
      ++finished;
      runs_done += c.runs;
      schedules_done += c.schedules;
      cases_with_findings += c.runs_with_finding > 0;
      if (!options.show_progress) continue;
      // One line, written over in place; a case that failed keeps a line
      // of its own above it.
      const double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      if (!c.mismatch.empty()) {
        progress << absl::StrFormat("\r\x1b[KFAIL %s x %s (%s): %s\n",
                                    c.subject, c.scenario, to_string(c.mode),
                                    c.observed());
      }
      progress << absl::StrFormat(
          "\rracelab gate: %d of %d cases done, %d with findings; last %s x "
          "%s (%s); %.0f runs/s, %.0f schedules/s, %s\x1b[K",
          finished, jobs.size(), cases_with_findings, c.subject, c.scenario,
          to_string(c.mode), runs_done / seconds, schedules_done / seconds,
          progress_time(Clock::now() - start));
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
  if (options.show_progress && finished > 0) {
    progress << "\r\x1b[K";  // the progress line gives way to the result
    progress.flush();
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (finished_case[i]) {
      result.mismatches += cases[i].mismatch.empty() ? 0 : 1;
      result.cases.push_back(std::move(cases[i]));
      result.case_index.push_back(jobs[i].index);
      continue;
    }
    if (!result.harness_error.empty() && !stop()) continue;
    const CaseSpec& spec = *jobs[i].spec;
    const Expectation* e =
        registry.find_expectation(spec.subject, spec.scenario, jobs[i].mode);
    result.not_run.push_back(
        {spec.family, spec.subject, spec.scenario, jobs[i].mode,
         e != nullptr ? describe_expected(*e, asks_to_verify(*e, jobs[i].mode))
                      : std::string("(no expectation)"),
         jobs[i].index, spec.source});
  }
  result.interrupted = !result.not_run.empty();
  return result;
}

void print_gate_table(const GateResult& result, std::ostream& out) {
  out << absl::StrFormat("%-32s %-27s %-10s %-28s %-28s %s\n", "subject",
                         "scenario", "mode", "expected", "observed",
                         "runs caught");
  for (const CaseResult& c : result.cases) {
    out << absl::StrFormat("%-32s %-27s %-10s %-28s %-28s %d/%d%s%s\n",
                           c.subject, c.scenario, to_string(c.mode), c.expected,
                           c.observed(), c.runs_with_finding, c.runs,
                           c.mismatch.empty() ? "" : "  MISMATCH",
                           c.retried.empty() ? "" : "  (retried)");
  }
  for (const CaseResult& c : result.cases) {
    if (!c.mismatch.empty()) {
      out << "MISMATCH " << c.subject << " x " << c.scenario << " ("
          << to_string(c.mode) << "): " << c.mismatch << "\n";
    }
  }
  for (const CaseResult& c : result.cases) {
    for (const RetriedRun& run : c.retried) {
      out << "RETRIED " << c.subject << " x " << c.scenario << " ("
          << to_string(c.mode) << "): " << describe(run) << "\n";
    }
  }
  for (const PlannedCase& p : result.not_run) {
    out << absl::StrFormat("%-32s %-27s %-10s %-28s %-28s %s\n", p.subject,
                           p.scenario, to_string(p.mode), p.expected, "-",
                           "not run");
  }
  out << absl::StrFormat("%d cases, %d mismatches", result.cases.size(),
                         result.mismatches);
  if (!result.not_run.empty())
    out << absl::StrFormat("; %d cases not run (interrupted)",
                           result.not_run.size());
  out << "\n";
}

const char* to_string(RunKind kind) {
  switch (kind) {
    case RunKind::kGate:
      return "gate";
    case RunKind::kExploreProgram:
      return "explore";
    case RunKind::kExploreTests:
      return "explore_tests";
  }
  return "gate";
}

std::optional<RunKind> parse_run_kind(std::string_view name) {
  for (RunKind kind :
       {RunKind::kGate, RunKind::kExploreProgram, RunKind::kExploreTests}) {
    if (name == to_string(kind)) return kind;
  }
  return std::nullopt;
}

nlohmann::json gate_settings(const GateOptions& options) {
  const RunOptions& run = options.run;
  const RunRequest& r = run.request;
  return {
      {"controlled_runs", options.controlled_runs},
      {"jitter", run.request.jitter},
      {"pause_us", run.request.pause_us},
      {"run_timeout_ms", run.run_timeout_ms},
      {"oracles", to_string(run.request.oracles)},
      {"strategy", r.strategy},
      {"threads", sched::to_string(r.threads)},
      {"depth", r.depth},
      {"preemptions", r.preemptions},
      {"memory_model", r.memory_model},
      {"budget", r.budget},
      {"shrink", r.shrink},
      {"subject_filter", options.subject_filter},
      {"scenario_filter", options.scenario_filter},
      {"shard_split",
       options.shard_split == ShardSplit::kSchedules ? "schedules" : "cases"},
      {"run_kind", to_string(options.run_kind)}};
}

void apply_gate_settings(const nlohmann::json& s, GateOptions& options) {
  RunOptions& run = options.run;
  RunRequest& r = run.request;
  options.controlled_runs = s.at("controlled_runs").get<int>();
  run.request.jitter = s.at("jitter").get<bool>();
  run.request.pause_us = s.at("pause_us").get<int>();
  run.run_timeout_ms = s.at("run_timeout_ms").get<int>();
  try {
    run.request.oracles = parse_oracle_set(s.at("oracles").get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw nlohmann::json::other_error::create(501, e.what(), &s);
  }
  r.strategy = s.at("strategy").get<std::string>();
  if (s.contains("threads")) {
    const auto substrate =
        sched::parse_substrate(s.at("threads").get<std::string>());
    if (!substrate) {
      throw nlohmann::json::other_error::create(
          501, "threads must be fibers or threads", &s);
    }
    r.threads = *substrate;
  }
  r.depth = s.at("depth").get<int>();
  r.preemptions = s.at("preemptions").get<int>();
  r.memory_model = s.value("memory_model", false);
  r.budget = s.at("budget").get<int>();
  r.shrink = s.at("shrink").get<bool>();
  options.subject_filter = s.at("subject_filter").get<std::string>();
  options.scenario_filter = s.at("scenario_filter").get<std::string>();
  const std::string split = s.value("shard_split", std::string("cases"));
  if (split != "cases" && split != "schedules") {
    throw nlohmann::json::other_error::create(
        501, "shard_split must be cases or schedules", &s);
  }
  options.shard_split =
      split == "schedules" ? ShardSplit::kSchedules : ShardSplit::kCases;
  // Absent in the results of a racelab that did not record it: a gate.
  const std::optional<RunKind> kind =
      parse_run_kind(s.value("run_kind", std::string("gate")));
  if (!kind) {
    throw nlohmann::json::other_error::create(
        501, "run_kind must be gate, explore or explore_tests", &s);
  }
  options.run_kind = *kind;
}

namespace {

std::string hex64(std::uint64_t h) { return absl::StrFormat("%016x", h); }

// The digest of the file at `path`, "" when it cannot be read.
std::string file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = kFnv1aBasis;
  std::string chunk(1 << 20, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    h = fnv1a(h, std::string_view(chunk.data(), got));
  }
  if (in.bad()) return "";
  return absl::StrCat("fnv1a64:", hex64(h));
}

}  // namespace

std::string identity_fingerprint(const nlohmann::json& identity) {
  const nlohmann::json hashed = {
      {"command", identity.value("command", nlohmann::json())},
      {"program_digest",
       identity.contains("program") && identity.at("program").is_object()
           ? identity.at("program").value("digest", nlohmann::json())
           : nlohmann::json()},
      {"arguments", identity.value("arguments", nlohmann::json())},
      {"options", identity.value("options", nlohmann::json())}};
  return hex64(fnv1a(
      kFnv1aBasis,
      hashed.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

nlohmann::json run_identity(const std::string& kind,
                            const std::vector<std::string>& command,
                            nlohmann::json options) {
  if (options.is_null()) options = nlohmann::json::object();
  nlohmann::json identity = {{"command", kind},
                             {"options", std::move(options)}};
  if (!command.empty()) {
    identity["program"] = {{"path", command.front()},
                           {"digest", file_digest(command.front())}};
    identity["arguments"] =
        std::vector<std::string>(command.begin() + 1, command.end());
  }
  identity["fingerprint"] = identity_fingerprint(identity);
  return identity;
}

nlohmann::json gate_identity(const Registry& registry,
                             const GateOptions& options) {
  // The case list the shards split: a gate of another catalog (another
  // racelab build) has another, even with the same number of cases.
  std::uint64_t h = kFnv1aBasis;
  for (const auto& [spec, mode] : gate_case_list(registry, options)) {
    h = fnv1a(h, absl::StrCat(spec->subject, "\n", spec->scenario, "\n",
                              to_string(mode), "\n"));
  }
  return run_identity("gate", {}, {{"catalog", hex64(h)}});
}

}  // namespace racelab
