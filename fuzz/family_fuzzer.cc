// One fuzz input, start to finish: decode it into a program of the family's
// spec (checkpoint_spec.h, state_spec.h: the operations, model and
// invariants the gate checks), run it in controlled mode under every oracle,
// report. Shared by the family targets (subject from byte 0) and the
// per-subject targets (subject fixed at build time).
#include "family_fuzzer.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "checkpoint_spec.h"
#include "coverage_under_tsan.h"
#include "fuzz_input.h"
#include "interleaving_coverage.h"
#include "racelab/internal/fuzz_report.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/spec.h"
#include "state_spec.h"
#include "subject_catalog.h"

namespace racelab::fuzz {
namespace {

// A schedule of at most 4 threads x 8 operations needs a few hundred
// decisions; a run that takes this many is a livelock (a timeout finding).
constexpr int kMaxSteps = 20000;

// One subject of the family: its name in reports ("checkpoint/mutex") and
// the family's spec with the subject's stores.
struct FuzzSubject {
  std::string name;
  SpecRef spec;
};

// The configured family: its subjects and how an input becomes a program.
struct FuzzFamily {
  std::vector<FuzzSubject> subjects;
  FuzzCase (*decode)(const std::uint8_t* data, std::size_t size) = nullptr;
};

TargetConfig g_config;
const FuzzFamily* g_family = nullptr;
int g_fixed_subject = -1;  // the configured variant's index, or -1: byte 0

sched::ControlledScheduler& scheduler() {
  static auto* s = new sched::ControlledScheduler(sched::SchedulerOptions{
      .max_steps = kMaxSteps, .substrate = sched::Substrate::kFibers});
  return *s;
}

template <class Store, class Model>
std::vector<FuzzSubject> subjects_of(
    const Spec<Store, Model>& spec,
    const std::vector<SubjectEntry<Store>>& entries) {
  std::vector<FuzzSubject> subjects;
  for (const SubjectEntry<Store>& s : entries) {
    subjects.push_back({absl::StrCat(spec.name(), "/", s.variant),
                        Spec<Store, Model>(spec).make(s.make)});
  }
  return subjects;
}

// The family of the configuration, or null when there is no such family.
const FuzzFamily* family_named(const std::string& name) {
  if (name == "checkpoint") {
    static const auto* family = new FuzzFamily{
        subjects_of(checkpoint::checkpoint_spec(), checkpoint_subjects()),
        decode_checkpoint_input};
    return family;
  }
  if (name == "state") {
    static const auto* family = new FuzzFamily{
        subjects_of(state::state_spec(), state_subjects()), decode_state_input};
    return family;
  }
  return nullptr;
}

// The operation names of the program's threads ("commit", "all", ...), what
// the interleaving counters hash.
std::vector<std::vector<std::string>> op_kinds(const Plan& program) {
  std::vector<std::vector<std::string>> kinds;
  kinds.reserve(program.threads.size());
  for (const auto& calls : program.threads) {
    std::vector<std::string> thread;
    thread.reserve(calls.size());
    for (const PlannedCall& c : calls) thread.push_back(c.name);
    kinds.push_back(std::move(thread));
  }
  return kinds;
}

// Everything a run produced: its subject and its observation (findings,
// program, decisions and trace).
struct Report {
  std::string subject;
  RunObservation run;
};

// `always_describe`: the report's program text even when the run is clean
// (--replay prints it).
Report run_input(const std::uint8_t* data, std::size_t size,
                 bool always_describe) {
  if (g_family == nullptr) {
    std::fprintf(stderr, "racelab fuzz: configure() was not called\n");
    std::abort();
  }
  const auto& subjects = g_family->subjects;
  auto c = std::make_unique<FuzzCase>(
      sched::unwatched([&] { return g_family->decode(data, size); }));
  const std::size_t index = g_fixed_subject >= 0
                                ? static_cast<std::size_t>(g_fixed_subject)
                                : c->selector % subjects.size();
  Report report;
  report.subject = subjects[index].name;
  ByteStrategy strategy(std::move(c->schedule));
  strategy.set_records_trace(false);  // run_spec_plan replays a failing input
  {
    InterleavingCoverage coverage(
        sched::unwatched([&] { return op_kinds(c->program); }),
        g_config.interleaving_coverage);
    coverage.attach(scheduler());
    report.run =
        run_spec_plan(subjects[index].spec, c->program, OracleSet::selectable(),
                      scheduler(), strategy, always_describe);
  }
  sched::HarnessScope harness;
  c.reset();  // the decoded program is freed unwatched
  return report;
}

}  // namespace

void configure(TargetConfig config) {
  const FuzzFamily* family = family_named(config.family);
  int fixed = -1;
  if (family != nullptr && !config.variant.empty()) {
    const std::string name = absl::StrCat(config.family, "/", config.variant);
    for (std::size_t i = 0; i < family->subjects.size(); ++i) {
      if (family->subjects[i].name == name) fixed = static_cast<int>(i);
    }
  }
  if (family == nullptr || (!config.variant.empty() && fixed < 0)) {
    std::fprintf(stderr, "racelab fuzz: no subject %s/%s\n",
                 config.family.c_str(), config.variant.c_str());
    std::exit(2);
  }
  const char* off = std::getenv("RACELAB_FUZZ_NO_INTERLEAVING");
  if (off != nullptr && std::string(off) == "1") {
    config.interleaving_coverage = false;
  }
  g_config = std::move(config);
  g_family = family;
  g_fixed_subject = fixed;
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
