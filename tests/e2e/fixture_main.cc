// A test build of racelab: the built-in catalog with two expectations flipped
// (a buggy case declared clean, a fixed case declared racy) plus fixture
// subjects that crash, hang or deadlock. The end-to-end tests use it to show
// that the gate fails on a mismatch in either direction and that a subject
// that dies or hangs is a finding, never a harness failure.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>

#include "catalog.h"
#include "racelab/cli.h"
#include "racelab/internal/progress.h"
#include "racelab/sync.h"

namespace {

using racelab::CaseSpec;
using racelab::Expectation;
using racelab::FindingKind;
using racelab::Mode;
using racelab::RunObservation;
using racelab::RunRequest;

const std::vector<Mode> kModes = {Mode::kStress, Mode::kControlled};

// `expected`: the kind the fixture must be caught with; none: it must be
// clean.
void add_fixture(racelab::Registry& registry, const std::string& variant,
                 const std::string& description,
                 std::optional<FindingKind> expected,
                 std::function<RunObservation(const RunRequest&)> run) {
  const std::string subject = "fixture/" + variant;
  registry.add_subject({"fixture", subject, description,
                        "tests/e2e/fixture_main.cc", expected.has_value()});
  registry.add_case({"fixture", subject, "fixture_run", std::move(run)});
  Expectation e{subject, "fixture_run", kModes, {}, {}, description};
  if (expected) {
    e.catches = {*expected};
    e.may_also = {FindingKind::kCrash, FindingKind::kTimeout};
  }
  registry.add_expectation(std::move(e));
}

}  // namespace

int main(int argc, char** argv) {
  racelab::Registry builtin;
  racelab::register_builtin_catalog(builtin);

  racelab::Registry registry;
  for (const auto& s : builtin.subjects()) registry.add_subject(s);
  for (const auto& s : builtin.scenarios()) registry.add_scenario(s);
  for (const auto& c : builtin.cases()) registry.add_case(c);
  for (Expectation e : builtin.expectations()) {
    if (e.subject == "checkpoint/unsynchronized" &&
        e.scenario == "seed_concurrent_sessions") {
      e.catches.clear();  // flipped: a known bug declared clean
      e.may_also.clear();
    } else if (e.subject == "checkpoint/mutex" &&
               e.scenario == "seed_concurrent_sessions") {
      // flipped: a fixed store declared racy
      e.catches = {FindingKind::kDataRace};
      e.may_also = {FindingKind::kCrash, FindingKind::kTimeout};
    }
    registry.add_expectation(std::move(e));
  }

  registry.add_scenario(
      {"fixture", "fixture_run", "the fixture's own behaviour", "", false});
  add_fixture(registry, "crash", "dereferences a null pointer",
              FindingKind::kCrash, [](const RunRequest&) -> RunObservation {
                volatile int* p = nullptr;
                *p = 1;
                return {};
              });
  add_fixture(registry, "hang", "sleeps forever", FindingKind::kTimeout,
              [](const RunRequest&) -> RunObservation {
                for (;;) pause();
              });
  // Busy without progress: a livelock burns the CPU, and the watchdog's
  // evidence is the CPU time spent (no thread ever sleeps).
  add_fixture(registry, "spin", "spins forever without progress",
              FindingKind::kTimeout, [](const RunRequest&) -> RunObservation {
                for (volatile unsigned long turns = 0;; turns = turns + 1) {
                }
              });
  add_fixture(registry, "self_deadlock", "takes a racelab::Mutex twice",
              FindingKind::kDeadlock, [](const RunRequest&) -> RunObservation {
                static racelab::Mutex mu("fixture.mu");
                mu.lock();
                mu.lock();
                return {};
              });
  // Runs share a child process: a crash in one run ends that child, and
  // the runs after it go on in a new one.
  add_fixture(registry, "crash_in_run_1",
              "dereferences a null pointer in run 1 only", FindingKind::kCrash,
              [](const RunRequest& request) -> RunObservation {
                if (request.run_index == 1) {
                  volatile int* p = nullptr;
                  *p = 1;
                }
                return {};
              });
  add_fixture(registry, "hang_in_run_1", "sleeps forever in run 1 only",
              FindingKind::kTimeout,
              [](const RunRequest& request) -> RunObservation {
                if (request.run_index == 1) {
                  for (;;) pause();
                }
                return {};
              });
  // Slow, but never stuck: each step takes a fifth of a second and counts as
  // progress, and the whole run lasts several times the run limit the tests
  // give it. A time limit on the whole run would call it a hang.
  add_fixture(registry, "slow_but_progressing",
              "takes 3 s in 200 ms steps, each one progress", std::nullopt,
              [](const RunRequest&) -> RunObservation {
                for (int step = 0; step < 15; ++step) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(200));
                  racelab::note_progress();
                }
                return {};
              });
  return racelab::run_cli(registry, argc, argv);
}
