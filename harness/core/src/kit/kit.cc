// The non-template parts of the store-implementer kit (racelab/kit.h):
// sanitizer findings, schedule files and the failure message.
#include "racelab/kit.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "racelab/sanitizer_capture.h"
#include "symbol_names.h"

namespace racelab {
namespace kit_internal {
namespace {

std::string safe_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

}  // namespace

std::vector<Finding> take_sanitizer_findings(bool enabled) {
  std::vector<Finding> findings = take_tsan_findings();
  if (!enabled) findings.clear();
  return findings;
}

std::string schedule_path(const CheckOptions& options, std::string_view store,
                          std::string_view scenario) {
  std::string dir = options.schedule_dir;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = (tmp != nullptr && *tmp != '\0') ? tmp : "/tmp";
  }
  return absl::StrCat(dir, "/racelab-", safe_name(store), "-",
                      safe_name(scenario), ".schedule");
}

std::string save_schedule(const std::string& path, const std::string& store,
                          const std::string& scenario,
                          const CheckOptions& options,
                          std::uint64_t program_seed,
                          const std::vector<std::string>& program_lines,
                          const std::vector<int>& decisions) {
  if (program_lines.size() < 3) return "";
  sched::ScheduleFile file;
  file.subject = store;
  file.scenario = scenario;
  file.mode = "controlled";
  file.strategy = options.strategy;
  file.seed = program_seed;
  file.extra = {
      {"setup", program_lines.front().empty() ? "-" : program_lines.front()},
      {"finale", program_lines.back().empty() ? "-" : program_lines.back()}};
  file.program.assign(program_lines.begin() + 1, program_lines.end() - 1);
  file.decisions = decisions;
  try {
    std::ofstream out(path);
    out << sched::write_schedule(file);
    if (!out) return "";
  } catch (const std::exception&) {
    return "";
  }
  return path;
}

sched::ScheduleFile read_schedule(const std::string& path,
                                  std::vector<std::string>* program_lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the schedule file");
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  sched::ScheduleFile file = sched::parse_schedule(text, path);
  auto extra = [&](const std::string& key) {
    for (const auto& [k, v] : file.extra) {
      if (k == key) return v == "-" ? std::string() : v;
    }
    return std::string();
  };
  program_lines->clear();
  program_lines->push_back(extra("setup"));
  for (const std::string& line : file.program) program_lines->push_back(line);
  program_lines->push_back(extra("finale"));
  return file;
}

void merge_kinds(std::vector<Finding>& into,
                 const std::vector<Finding>& extra) {
  std::set<FindingKind> have;
  for (const Finding& f : into) have.insert(f.kind);
  for (const Finding& f : extra) {
    if (!have.contains(f.kind)) into.push_back(f);
  }
}

void compose_message(CheckResult& result, const std::string& store,
                     const std::string& scenario, const CheckOptions& options) {
  std::ostringstream out;
  const bool controlled = options.mode == Mode::kControlled;
  out << store << " x " << scenario << " (" << to_string(options.mode)
      << ", oracles " << to_string(options.oracles) << "): ";
  if (result.clean()) {
    if (controlled) {
      out << "clean over " << result.schedules << " schedules ("
          << options.strategy << ", seed " << options.seed << ")\n";
    } else {
      out << "clean over " << result.runs << " runs\n";
    }
    result.message = out.str();
    return;
  }
  if (controlled) {
    out << "FAILED at schedule " << result.first_failing + 1 << " of "
        << result.schedules << "\n";
  } else {
    out << "FAILED in run " << result.runs << "\n";
  }
  out << format_findings(result.findings);
  for (const Finding& f : result.findings) {
    if ((f.oracle == Oracle::kLinearizability ||
         f.oracle == Oracle::kDeadlock) &&
        !f.detail.empty()) {
      out << "  " << f.detail << "\n";
    }
  }
  if (!result.trace_table.empty()) {
    out << "minimal failing schedule (" << result.preemptions
        << " preemptions):\n"
        << result.trace_table;
  }
  if (!result.schedule_file.empty()) {
    out << "schedule saved to " << result.schedule_file
        << " (rerun it with racelab::replay_store)\n";
  } else if (controlled) {
    out << "(the schedule could not be saved)\n";
  }
  result.message = out.str();
}

}  // namespace kit_internal

std::string format_findings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    absl::StrAppend(&out, "  [", to_string(f.kind), "/", to_string(f.oracle),
                    "] ", f.summary, "\n");
    if (f.subject_frame && !f.subject_frame->function.empty()) {
      absl::StrAppend(&out, "      at ",
                      readable_symbol(f.subject_frame->function), " ",
                      f.subject_frame->file, ":", f.subject_frame->line, "\n");
    }
  }
  return out;
}

}  // namespace racelab
