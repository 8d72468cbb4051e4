// `racelab bench` (bench.h): runs the chosen sections in order and ends with
// the controlled/stress ratio line (gate_ratio.cc).
#include "bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench_internal.h"
#include "racelab/internal/sanitizer_capture.h"

namespace racelab {
namespace bench_internal {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  if (values.size() % 2 == 1) return values[mid];
  return (values[mid - 1] + values[mid]) / 2;
}

bool matches_filter(const Expectation& e, const std::string& filter) {
  return filter.empty() || e.subject.find(filter) != std::string::npos ||
         e.scenario.find(filter) != std::string::npos;
}

double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    total +=
        static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
        1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return total;
}

std::string median_and_range(const std::vector<double>& values) {
  if (values.empty()) return "-";
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return absl::StrCat(fmt(median(values)), " (", fmt(*low), "-", fmt(*high),
                      ")");
}

std::string fmt(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude >= 100) return absl::StrFormat("%.0f", value);
  if (magnitude >= 10) return absl::StrFormat("%.1f", value);
  if (magnitude >= 1) return absl::StrFormat("%.2f", value);
  return absl::StrFormat("%.3g", value);
}

}  // namespace bench_internal

int run_bench(const Registry& registry, const BenchOptions& given,
              std::ostream& out) {
  using namespace bench_internal;
  BenchOptions options = given;
  if (options.quick) {  // a smoke test: every section, minimal budgets
    options.seeds = std::min(options.seeds, 1);
    options.budget = std::min(options.budget, 100);
    options.max_stress_runs = std::min(options.max_stress_runs, 2);
    options.measure_ms = std::min(options.measure_ms, 100);
    options.fuzz_seconds = std::min(options.fuzz_seconds, 1);
    options.dpor_budget = std::min(options.dpor_budget, 100);
  }
  const std::set<std::string> known = {
      "all",     "throughput", "gate", "switch",   "startup", "first",
      "oracles", "fuzz",       "dpor", "programs", "memory",  "threads"};
  std::set<std::string> sections;
  for (absl::string_view part :
       absl::StrSplit(options.sections, ',', absl::SkipEmpty())) {
    const std::string name(part);
    if (!known.contains(name)) {
      out << "racelab bench: unknown section '" << name
          << "' (known: throughput, gate, switch, startup, first, oracles, "
             "dpor, programs, memory, threads, fuzz, all)\n";
      return 2;
    }
    sections.insert(name);
  }
  if (options.seeds < 1 || options.budget < 1 || options.max_stress_runs < 1 ||
      options.measure_ms < 1 || options.fuzz_seconds < 1) {
    out << "racelab bench: --seeds, --budget, --max-stress-runs, --measure-ms "
           "and --fuzz-seconds must be positive\n";
    return 2;
  }
  auto wanted = [&](const char* name) {
    return sections.contains("all") || sections.contains(name);
  };

  out << "racelab bench ("
      << (built_with_tsan()   ? "ThreadSanitizer build"
          : built_with_asan() ? "AddressSanitizer build"
                              : "no sanitizer")
      << (options.quick ? ", --quick" : "") << ")\n\n";
  std::string last_line;
  out << std::flush;  // long runs: show each section as soon as it is done
  if (wanted("throughput")) {
    throughput_section(options, out);
    out << std::flush;
  }
  if (wanted("gate")) {
    last_line = gate_ratio_section(registry, options, out);
    out << std::flush;
  }
  if (wanted("switch")) {
    switch_section(options, out);
    out << std::flush;
  }
  if (wanted("startup")) {
    startup_section(registry, options, out);
    out << std::flush;
  }
  if (wanted("first")) first_finding_section(registry, options, out);
  if (wanted("oracles")) {
    oracle_section(registry, options, out);
    out << std::flush;
  }
  if (wanted("dpor")) {
    dpor_section(registry, options, out);
    out << std::flush;
  }
  if (wanted("programs")) {
    programs_section(options, out);
    out << std::flush;
  }
  if (wanted("memory")) {
    memory_model_section(registry, options, out);
    out << std::flush;
  }
  if (wanted("threads")) {
    threads_section(options, out);
    out << std::flush;
  }
  if (wanted("fuzz")) fuzz_section(options, out);
  if (!last_line.empty()) out << last_line << "\n";
  return 0;
}

}  // namespace racelab
