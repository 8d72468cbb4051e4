// A test build of racelab: the built-in catalog with two expectations flipped
// (a buggy case declared clean, a fixed case declared racy) plus fixture
// subjects that crash, hang or deadlock. The end-to-end tests use it to show
// that the gate fails on a mismatch in either direction and that a subject
// that dies or hangs is a finding, never a harness failure.
#include <unistd.h>

#include <cstdlib>

#include "catalog.h"
#include "racelab/cli.h"
#include "racelab/sync.h"

namespace {

using racelab::CaseSpec;
using racelab::Expectation;
using racelab::FindingKind;
using racelab::Mode;
using racelab::RunObservation;
using racelab::RunRequest;

const std::vector<Mode> kModes = {Mode::kStress, Mode::kControlled};

void add_fixture(racelab::Registry& registry, const std::string& variant,
                 const std::string& description, FindingKind expected,
                 std::function<RunObservation(const RunRequest&)> run) {
  const std::string subject = "fixture/" + variant;
  registry.add_subject(
      {"fixture", subject, description, "tests/e2e/fixture_main.cc", true});
  registry.add_case({"fixture", subject, "fixture_run", std::move(run)});
  registry.add_expectation(
      {subject, "fixture_run", kModes, {expected}, {}, description});
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
      e.catches = {
          FindingKind::kDataRace};  // flipped: a fixed store declared racy
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
  add_fixture(registry, "self_deadlock", "takes a racelab::Mutex twice",
              FindingKind::kDeadlock, [](const RunRequest&) -> RunObservation {
                static racelab::Mutex mu("fixture.mu");
                mu.lock();
                mu.lock();
                return {};
              });
  return racelab::run_cli(registry, argc, argv);
}
