// `racelab bench`, fuzz section: libFuzzer executions per second of every
// fuzz target that is built (fuzz_* in the fuzz preset's build folder). Each
// runs for a few seconds from an empty corpus; the figure is libFuzzer's own
// final stat::average_exec_per_sec (or its last "exec/s:" when a target stops
// at a finding before it prints final stats), and beside it the executions
// per second of CPU time the target used (user + system), which a busy
// machine does not lower.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_internal.h"

namespace racelab::bench_internal {
namespace {

namespace fs = std::filesystem;

std::string default_fuzz_dir(const std::string& self_exe) {
  std::error_code ec;
  fs::path exe = fs::canonical(self_exe, ec);
  if (ec) return "build/fuzz/fuzz";
  // build/<preset>/racelab -> build/fuzz/fuzz
  return (exe.parent_path().parent_path() / "fuzz" / "fuzz").string();
}

// The targets the fuzz build lists in fuzz_targets.txt (its other fuzz_*
// binaries, like fuzz_make_corpus, are tools), else every fuzz_* executable.
std::vector<fs::path> fuzz_targets(const std::string& dir) {
  auto runnable = [](const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
  };
  std::vector<fs::path> targets;
  std::ifstream list(fs::path(dir) / "fuzz_targets.txt");
  std::string name;
  while (list >> name) {
    if (runnable(fs::path(dir) / name)) targets.push_back(fs::path(dir) / name);
  }
  if (list.is_open()) {
    std::sort(targets.begin(), targets.end());
    return targets;
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (!file.starts_with("fuzz_") || file.find('.') != std::string::npos) {
      continue;
    }
    if (runnable(entry.path())) targets.push_back(entry.path());
  }
  std::sort(targets.begin(), targets.end());
  return targets;
}

// The number after the last `key` in `text`, or -1.
double last_number_after(const std::string& text, const std::string& key) {
  const size_t at = text.rfind(key);
  if (at == std::string::npos) return -1;
  return std::strtod(text.c_str() + at + key.size(), nullptr);
}

struct FuzzRun {
  double exec_per_second = -1;
  double executions = -1;
  double cpu_seconds = -1;     // user + system of the target (and its shell)
  bool stopped_early = false;  // a finding (crash, report) ended it
};

// User + system seconds of the waited-for children so far.
double children_cpu_seconds() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_CHILDREN, &usage) != 0) return -1;
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Executions per CPU second, or -1 when either figure is missing.
double per_cpu_second(const FuzzRun& run) {
  if (run.executions < 0 || run.cpu_seconds <= 0) return -1;
  return run.executions / run.cpu_seconds;
}

FuzzRun run_target(const fs::path& target, int seconds,
                   const std::string& artifacts) {
  // `timeout` guards against a target that hangs past -max_total_time.
  const std::string command = absl::StrCat(
      "timeout -s KILL ", seconds + 30, " '", target.string(),
      "' -max_total_time=", seconds,
      " -print_final_stats=1 -artifact_prefix=", artifacts, "/ 2>&1");
  FuzzRun run;
  const double cpu_before = children_cpu_seconds();
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::string text;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    text.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe);
  const double cpu_after = children_cpu_seconds();
  if (cpu_before >= 0 && cpu_after >= 0)
    run.cpu_seconds = cpu_after - cpu_before;
  run.stopped_early = status != 0;
  run.exec_per_second = last_number_after(text, "stat::average_exec_per_sec:");
  if (run.exec_per_second < 0) {
    run.exec_per_second = last_number_after(text, "exec/s:");
  }
  run.executions = last_number_after(text, "stat::number_of_executed_units:");
  return run;
}

}  // namespace

void fuzz_section(const BenchOptions& options, std::ostream& out) {
  const std::string dir = options.fuzz_dir.empty()
                              ? default_fuzz_dir(options.self_exe)
                              : options.fuzz_dir;
  out << "== fuzz targets: libFuzzer exec/s, " << options.fuzz_seconds
      << " s each from an empty corpus (" << dir << ") ==\n";
  const std::vector<fs::path> targets = fuzz_targets(dir);
  if (targets.empty()) {
    out << "skipped: no fuzz_* binaries in " << dir
        << " (build them: cmake --preset fuzz && cmake --build --preset "
           "fuzz)\n\n";
    return;
  }
  char pattern[] = "/tmp/racelab-bench-fuzz-XXXXXX";
  const char* artifacts = ::mkdtemp(pattern);
  if (artifacts == nullptr) artifacts = "/tmp";
  out << "exec/cpu-s = executions / (user + system seconds of the target): "
         "what one core gives, whatever the load\n";
  out << absl::StrFormat("%-44s %12s %12s %8s %12s %s\n", "target", "exec/s",
                         "executions", "cpu s", "exec/cpu-s", "");
  for (const fs::path& target : targets) {
    FuzzRun run = run_target(target, options.fuzz_seconds, artifacts);
    const double per_cpu = per_cpu_second(run);
    out << absl::StrFormat(
               "%-44s %12s %12s %8s %12s %s\n", target.filename().string(),
               run.exec_per_second < 0 ? "-" : fmt(run.exec_per_second),
               run.executions < 0 ? "-"
                                  : absl::StrFormat("%.0f", run.executions),
               run.cpu_seconds < 0 ? "-"
                                   : absl::StrFormat("%.2f", run.cpu_seconds),
               per_cpu < 0 ? "-" : fmt(per_cpu),
               run.stopped_early ? "(stopped at a finding or error)" : "")
        << std::flush;
  }
  std::error_code ec;
  fs::remove_all(artifacts, ec);
  out << "\n";
}

}  // namespace racelab::bench_internal
