// The report every fuzz target prints for an input with findings
// (format_fuzz_report): the line fuzz_smoke.sh looks for, the findings with
// their details, the program by role, the decisions and the trace.
#include "racelab/internal/fuzz_report.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace racelab {
namespace {

TEST(FuzzReport, NamesFindingsProgramDecisionsAndTrace) {
  RunObservation run;
  run.findings.push_back({FindingKind::kNotLinearizable,
                          Oracle::kLinearizability,
                          "lost commit",
                          "line one\nline two",
                          std::nullopt,
                          {}});
  run.schedule.program = {"set(k0,v0)", "commit(s1,p0)", "commit(s1,p1)", ""};
  run.schedule.decisions = {0, 1, 1, 0};
  run.schedule.preemptions = 1;
  run.schedule.trace.thread_count = 2;
  run.schedule.trace.rows = {
      {0, 0, sched::TraceKind::kOperation, "commit(s1,p0)"},
      {1, 1, sched::TraceKind::kOperation, "commit(s1,p1)"}};
  const std::string report = format_fuzz_report("checkpoint/split_lock", run);
  EXPECT_EQ(report.rfind("racelab fuzz: 1 finding(s) on checkpoint/split_lock\n"
                         "  not_linearizable (linearizability): lost commit\n"
                         "    | line one\n    | line two\n"
                         "program:\n  setup: set(k0,v0)\n"
                         "  thread 0: commit(s1,p0)\n"
                         "  thread 1: commit(s1,p1)\n  finale: \n"
                         "decisions (4, 1 preemptions, completed): 0 1 1 0\n"
                         "trace:\nstep | thread 0",
                         0),
            0u)
      << report;
  EXPECT_NE(report.find("| commit(s1,p1)\n"), std::string::npos) << report;
}

TEST(FuzzReport, NoFindingNoReport) {
  EXPECT_EQ(finish_fuzz_input("x", RunObservation{}, ""), 0);
}

}  // namespace
}  // namespace racelab
