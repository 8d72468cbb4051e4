// One fuzz input, start to finish: decode, run in controlled mode under every
// oracle, report. Shared by the family targets (subject from byte 0) and the
// per-subject targets (subject fixed at build time).
#include "family_fuzzer.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "checkpoint_scenarios.h"
#include "coverage_under_tsan.h"
#include "fuzz_input.h"
#include "interleaving_coverage.h"
#include "racelab/controlled_runner.h"
#include "racelab/fuzz_report.h"
#include "racelab/sanitizer_capture.h"
#include "racelab/sched/scheduler.h"
#include "racelab/sched/trace.h"
#include "state_scenarios.h"
#include "subject_catalog.h"

namespace racelab::fuzz {
namespace {

// A schedule of at most 4 threads x 8 operations needs a few hundred
// decisions; a run that takes this many is a livelock (a timeout finding).
constexpr int kMaxSteps = 20000;

TargetConfig g_config;
bool g_configured = false;

sched::ControlledScheduler& scheduler() {
  static auto* s = new sched::ControlledScheduler(
      sched::SchedulerOptions{kMaxSteps, sched::Fiber::kDefaultStackSize});
  return *s;
}

// Everything a run produced: its subject and its observation (findings,
// program, decisions and trace).
struct Report {
  std::string subject;
  RunObservation run;
};

// The operation kinds of the program's threads ("commit", "all", ...), the
// name of each operation's text up to its '(' (what the interleaving counters
// hash).
template <class F>
std::vector<std::vector<std::string>> op_kinds(
    const Program<typename F::Op>& program) {
  std::vector<std::vector<std::string>> kinds;
  kinds.reserve(program.threads.size());
  for (const auto& ops : program.threads) {
    std::vector<std::string> thread;
    thread.reserve(ops.size());
    for (const auto& op : ops) {
      std::string text = F::describe(op);
      text.resize(std::min(text.size(), text.find('(')));
      thread.push_back(std::move(text));
    }
    kinds.push_back(std::move(thread));
  }
  return kinds;
}

template <class F, class Store, class Check>
Report run_family(const std::vector<SubjectEntry<Store>>& subjects,
                  FuzzCase<typename F::Op> c, Check check,
                  bool always_describe) {
  std::size_t index = c.selector % subjects.size();
  if (!g_config.variant.empty()) {
    for (std::size_t i = 0; i < subjects.size(); ++i) {
      if (g_config.variant == subjects[i].variant) index = i;
    }
  }
  const SubjectEntry<Store>& subject = subjects[index];
  Scenario<F> scenario{"fuzz",
                       "a program decoded from a fuzz input",
                       nullptr,
                       check,
                       {Mode::kControlled}};
  Report report;
  report.subject = absl::StrCat(F::kName, "/", subject.variant);
  ByteStrategy strategy(std::move(c.schedule));
  InterleavingCoverage coverage(
      sched::unwatched([&] { return op_kinds<F>(c.program); }),
      g_config.interleaving_coverage);
  coverage.attach(scheduler());
  strategy.set_records_trace(false);  // with_trace replays a failing input
  report.run =
      with_trace(run_schedule<F>(scenario, subject.make, c.program,
                                 OracleSet::selectable(), scheduler(), strategy,
                                 take_tsan_findings),
                 [&](sched::Strategy& replay) {
                   return run_schedule<F>(scenario, subject.make, c.program,
                                          OracleSet::selectable(), scheduler(),
                                          replay, take_tsan_findings);
                 });
  // The program's text is for the report: only a finding or a replay prints
  // it.
  if (!report.run.findings.empty() || always_describe) {
    report.run.schedule.program = encode_program<F>(c.program);
  }
  sched::HarnessScope harness;
  Program<typename F::Op> done = std::move(c.program);  // freed unwatched
  return report;
}

// `always_describe`: the report's program text even when the run is clean
// (--replay prints it).
Report run_input(const std::uint8_t* data, std::size_t size,
                 bool always_describe) {
  if (!g_configured) {
    std::fprintf(stderr, "racelab fuzz: configure() was not called\n");
    std::abort();
  }
  if (g_config.family == "checkpoint") {
    return run_family<checkpoint::CheckpointFamily>(
        checkpoint_subjects(),
        sched::unwatched([&] { return decode_checkpoint_input(data, size); }),
        checkpoint::check_checkpoint_invariants, always_describe);
  }
  return run_family<state::StateFamily>(
      state_subjects(),
      sched::unwatched([&] { return decode_state_input(data, size); }),
      state::check_state_invariants, always_describe);
}

template <class Store>
bool has_variant(const std::vector<SubjectEntry<Store>>& subjects,
                 const std::string& variant) {
  for (const auto& s : subjects) {
    if (variant == s.variant) return true;
  }
  return false;
}

}  // namespace

void configure(TargetConfig config) {
  const bool known_family =
      config.family == "checkpoint" || config.family == "state";
  const bool known_variant =
      config.variant.empty() ||
      (config.family == "checkpoint"
           ? has_variant(checkpoint_subjects(), config.variant)
           : has_variant(state_subjects(), config.variant));
  if (!known_family || !known_variant) {
    std::fprintf(stderr, "racelab fuzz: no subject %s/%s\n",
                 config.family.c_str(), config.variant.c_str());
    std::exit(2);
  }
  const char* off = std::getenv("RACELAB_FUZZ_NO_INTERLEAVING");
  if (off != nullptr && std::string(off) == "1") {
    config.interleaving_coverage = false;
  }
  g_config = std::move(config);
  g_configured = true;
  tolerate_coverage_writes();
}

int fuzz_one_input(const std::uint8_t* data, std::size_t size) {
  Report report = run_input(data, size, /*always_describe=*/false);
  return finish_fuzz_input(
      report.subject, report.run,
      "; replay it with: <this binary> --replay <crash file>");
}

int replay_input(const std::uint8_t* data, std::size_t size) {
  Report report = run_input(data, size, /*always_describe=*/true);
  std::string text = format_fuzz_report(report.subject, report.run);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  return static_cast<int>(report.run.findings.size());
}

void maybe_replay(int argc, char** argv) {
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--replay" || arg == "-replay") {
      if (i + 1 < argc)
        file = argv[i + 1];
      else
        file = "-";  // no file named: an error below
    } else if (arg.rfind("--replay=", 0) == 0) {
      file = arg.substr(9);
    }
  }
  if (file.empty()) return;
  std::ifstream in(file, std::ios::binary);
  if (file == "-" || !in) {
    std::fprintf(stderr, "racelab fuzz: --replay: cannot read '%s'\n",
                 file.c_str());
    std::exit(2);
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  std::printf("racelab fuzz: replaying %s (%zu bytes)\n", file.c_str(),
              bytes.size());
  const int findings = replay_input(
      reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  // Straight to the kernel: TSan's exit interceptors would turn the status
  // into its own exitcode (66) whenever it printed a report.
  std::fflush(nullptr);
  syscall(SYS_exit_group, findings > 0 ? 1 : 0);
  std::abort();  // not reached
}

}  // namespace racelab::fuzz
