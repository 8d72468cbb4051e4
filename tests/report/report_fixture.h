// A hand-built GateResult for the report writer tests: four cases over two
// modes (clean ok, caught ok, a missed bug, a clean case that reported a race
// and a deadlock), one with a trace, and strings from "runs" full of markup,
// quotes, pipes, backticks, line breaks and control characters.
#ifndef RACELAB_TESTS_REPORT_REPORT_FIXTURE_H_
#define RACELAB_TESTS_REPORT_REPORT_FIXTURE_H_

#include <string>

#include "racelab/gate.h"

namespace racelab::testing {

// Everything a hostile run could put in a string (no control characters).
inline const std::string kHostile =
    "<script>alert('x')</script> & \"q\" | `tick` ]]> \n line2 \\ *bold* _u_";
// The same with control characters XML 1.0 cannot carry.
inline const std::string kHostileCtl = "ctl\x01here\x1f and\x7f \x0b end";

inline const std::string kHostileSubject = "state/<b>evil</b>|`x`";
inline const std::string kHostileScenario =
    "scen<script>alert(1)</script>|\"q\"";
inline const std::string kHostileFunction =
    "ns::Foo<int>::operator|(const std::string&)";

inline GateOptions fixture_options() {
  GateOptions options;
  options.modes = {Mode::kStress, Mode::kControlled};
  options.run.runs = 4;
  options.run.request.seed = 7;
  return options;
}

inline Finding race_finding(const std::string& summary, int line) {
  Finding f{FindingKind::kDataRace, Oracle::kTsan, summary,
            kHostile + kHostileCtl, std::nullopt,  {}};
  f.subject_frame =
      Frame{kHostileFunction, "subjects/checkpoint/unsynchronized.cc", line};
  f.accesses.push_back(Access{
      "write of size 8",
      1,
      {Frame{"std::vector<int>::push_back",
             "/usr/include/c++/12/bits/vector.tcc", 100, FrameOrigin::kLibrary},
       Frame{kHostileFunction, "subjects/checkpoint/unsynchronized.cc", line},
       Frame{"racelab::checkpoint::checkpoint_spec()::$_0::operator()",
             "scenarios/checkpoint_spec.cc", 300, FrameOrigin::kRacelab},
       Frame{"racelab::run_stress", "harness/include/racelab/stress_runner.h",
             74, FrameOrigin::kRacelab}}});
  f.accesses.push_back(
      Access{"previous read of size 8",
             2,
             {Frame{"racelab::checkpoint::Unsynchronized::lookup",
                    "subjects/checkpoint/unsynchronized.cc", 57},
              Frame{"<null>", "", 0, FrameOrigin::kLibrary}}});
  return f;
}

// A fixed subject whose controlled search (dfs) ran out without a finding,
// and another scenario searched by pct within a budget that did not run out.
inline GateResult verified_and_clean_result() {
  GateResult result;
  CaseResult verified;
  verified.family = "checkpoint";
  verified.subject = "checkpoint/mutex";
  verified.source = "subjects/checkpoint/mutex.cc";
  verified.scenario = "index_reader_vs_committer";
  verified.mode = Mode::kControlled;
  verified.expected = "verified";
  verified.expected_kinds = KindSet{};
  verified.runs = 1;
  verified.schedules = 41;
  verified.exhaustive_runs = 1;
  verified.verified = true;
  verified.strategy = "dfs";
  verified.budget = 10000;
  verified.histogram = {{KindSet{}, 1}};
  result.cases.push_back(verified);
  CaseResult clean = verified;
  clean.scenario = "seed_concurrent_sessions";
  clean.expected = "clean";
  clean.schedules = 1000;
  clean.exhaustive_runs = 0;
  clean.verified = false;
  clean.strategy = "pct";
  clean.budget = 1000;
  result.cases.push_back(clean);
  return result;
}

inline GateResult fixture_result() {
  GateResult result;

  // 1. Buggy subject, caught as expected (stress).
  CaseResult caught;
  caught.family = "checkpoint";
  caught.subject = "checkpoint/unsynchronized";
  caught.source =
      "subjects/" + std::string("checkpoint/unsynchronized") + ".cc";
  caught.scenario = "seed_concurrent_sessions";
  caught.mode = Mode::kStress;
  caught.expected = "data_race";
  caught.expected_kinds = KindSet{FindingKind::kDataRace};
  caught.kinds = {FindingKind::kDataRace};
  caught.runs = 4;
  caught.runs_with_finding = 3;
  caught.histogram = {{KindSet{}, 1}, {KindSet{FindingKind::kDataRace}, 3}};
  caught.findings.push_back(
      {race_finding("ThreadSanitizer: data race " + kHostile, 42), 3});
  caught.first_failure_log =
      "WARNING: ThreadSanitizer: data race\n" + kHostileCtl;
  caught.seconds = 1.25;
  result.cases.push_back(caught);

  // 2. Fixed subject, clean as expected (stress).
  CaseResult clean;
  clean.family = "checkpoint";
  clean.subject = "checkpoint/mutex";
  clean.source = "subjects/" + std::string("checkpoint/mutex") + ".cc";
  clean.scenario = "seed_concurrent_sessions";
  clean.mode = Mode::kStress;
  clean.expected = "clean";
  clean.expected_kinds = KindSet{};
  clean.runs = 4;
  clean.histogram = {{KindSet{}, 4}};
  clean.seconds = 0.5;
  result.cases.push_back(clean);

  // 3. Buggy subject, nothing caught: a missed bug (controlled).
  CaseResult missed;
  missed.family = "checkpoint";
  missed.subject = "checkpoint/split_lock";
  missed.source = "subjects/" + std::string("checkpoint/split_lock") + ".cc";
  missed.scenario = "same_session_first_commit";
  missed.mode = Mode::kControlled;
  missed.expected = "not_linearizable";
  missed.expected_kinds = KindSet{FindingKind::kNotLinearizable};
  missed.runs = 4;
  missed.histogram = {{KindSet{}, 4}};
  missed.mismatch = "expected not_linearizable but no run found anything";
  missed.seconds = 2;
  result.cases.push_back(missed);

  // 4. Hostile names, expected clean, reported a race without a frame and a
  // deadlock; with a trace (controlled).
  CaseResult hostile;
  hostile.family = "state";
  hostile.subject = kHostileSubject;
  hostile.source = "subjects/" + std::string(kHostileSubject) + ".cc";
  hostile.scenario = kHostileScenario;
  hostile.mode = Mode::kControlled;
  hostile.expected = "clean";
  hostile.expected_kinds = KindSet{};
  hostile.kinds = {FindingKind::kDataRace, FindingKind::kDeadlock};
  hostile.runs = 4;
  hostile.runs_with_finding = 2;
  hostile.histogram = {
      {KindSet{}, 2},
      {KindSet{FindingKind::kDataRace, FindingKind::kDeadlock}, 2}};
  hostile.mismatch =
      "expected clean, but the case reported " + kHostile + kHostileCtl;
  hostile.findings.push_back({Finding{FindingKind::kDataRace,
                                      Oracle::kTsan,
                                      "race " + kHostile + kHostileCtl,
                                      "",
                                      std::nullopt,
                                      {}},
                              2});
  Finding deadlock{FindingKind::kDeadlock,
                   Oracle::kDeadlock,
                   "self-deadlock on 'state.mu'",
                   "",
                   std::nullopt,
                   {}};
  deadlock.subject_frame =
      Frame{"racelab::state::HoldLock::all", "subjects/state/hold_lock.cc", 0};
  hostile.findings.push_back({deadlock, 1});
  hostile.schedule.trace.thread_count = 2;
  hostile.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "set(k1, " + kHostile + ") begins"},
      {0, 0, sched::TraceKind::kLockAcquired, "acquired 'state.mu'",
       "state.mu"},
      {0, 0, sched::TraceKind::kSwitch, "preempted at 'set'"},
      {1, 1, sched::TraceKind::kOperation, "all() begins"},
      {1, 1, sched::TraceKind::kLockWaited, "blocked on 'state.mu'",
       "state.mu"},
      {2, 0, sched::TraceKind::kOperation, "-> ok"},
      {2, 0, sched::TraceKind::kLockReleased, "released 'state.mu'",
       "state.mu"},
      {3, 1, sched::TraceKind::kLockAcquired, "acquired 'state.mu' (shared)",
       "state.mu", true},
      {3, 1, sched::TraceKind::kOperation, "yield(k1)"},
      {3, 1, sched::TraceKind::kException, "data_race: " + kHostileCtl},
  };
  hostile.schedule_file =
      "reports/out/schedules/" + kHostileScenario + ".schedule";
  hostile.seconds = 0.75;
  result.cases.push_back(hostile);

  // 5. The same race as case 1 in controlled mode: one SARIF result.
  CaseResult caught2 = caught;
  caught2.mode = Mode::kControlled;
  caught2.findings[0] = {
      race_finding("ThreadSanitizer: data race " + kHostile, 44), 4};
  caught2.histogram = {{KindSet{FindingKind::kDataRace}, 4}};
  caught2.runs_with_finding = 4;
  caught2.first_failure_log.clear();
  result.cases.push_back(caught2);

  result.mismatches = 2;
  return result;
}

}  // namespace racelab::testing

#endif  // RACELAB_TESTS_REPORT_REPORT_FIXTURE_H_
