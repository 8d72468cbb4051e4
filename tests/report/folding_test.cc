// How the reports fold what a reader does not need: report::stack_view()
// (the store's frames open, the rest folded), report::finding_group_key()
// (reports of one race read as one), and what_ran() / runs_text() (every
// header in the unit of its mode).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "racelab/finding.h"
#include "racelab/gate.h"
#include "report_internal.h"

namespace racelab {
namespace {

Frame lib(std::string function) {
  return {std::move(function), "/usr/include/c++/12/bits/hashtable.h", 798,
          FrameOrigin::kLibrary};
}
Frame own(std::string function, int line) {
  return {std::move(function), "subjects/kv/store.cc", line,
          FrameOrigin::kUser};
}
Frame engine(std::string function) {
  return {std::move(function), "harness/include/racelab/go_map.h", 98,
          FrameOrigin::kRacelab};
}

TEST(StackView, ShowsTheStoresFramesAndFoldsDownToTheirCaller) {
  const std::vector<Frame> stack = {lib("std::_Hashtable<...>::find"),
                                    lib("std::unordered_map<...>::find"),
                                    engine("racelab::GoMap<...>::find"),
                                    own("kv::Store::get", 20),
                                    own("kv::Store::get_or", 31),
                                    engine("scenario::execute"),
                                    engine("run_stress lambda"),
                                    lib("std::thread::_State_impl"),
                                    lib("start_thread")};
  const report::StackView view = report::stack_view(stack);
  EXPECT_EQ(view.shown, (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(view.folded_end, 6u);  // the store's caller, not the thread start
  EXPECT_EQ(view.library, 2);
  EXPECT_EQ(view.racelab, 2);
}

TEST(StackView, WithoutStoreFramesShowsTheFirstNonLibraryFrame) {
  const std::vector<Frame> stack = {lib("memcpy"), engine("racelab::copy"),
                                    lib("start_thread")};
  const report::StackView view = report::stack_view(stack);
  EXPECT_EQ(view.shown, (std::vector<std::size_t>{1}));
  EXPECT_EQ(view.folded_end, 3u);  // all of it
  const report::StackView only_library =
      report::stack_view({lib("memcpy"), lib("start_thread")});
  EXPECT_EQ(only_library.shown, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(report::stack_view({}).shown.empty());
}

TEST(StackView, CapsWhatItShowsAndFolds) {
  std::vector<Frame> stack;
  for (int i = 0; i < 40; ++i) stack.push_back(own("kv::deep", i));
  const report::StackView view = report::stack_view(stack);
  EXPECT_EQ(view.shown.size(), report::StackView::kMaxShown);
  EXPECT_EQ(view.folded_end, report::StackView::kMaxFolded);
}

Finding race(int thread_a, int thread_b, int line_a, int line_b,
             std::string engine_frame) {
  Finding f{FindingKind::kDataRace,
            "tsan",
            "race between thread " + std::to_string(thread_a) + " and " +
                std::to_string(thread_b),
            "",
            own("kv::Store::put", line_a),
            {}};
  f.accesses.push_back({"write of size 8",
                        thread_a,
                        {lib("std::_Hashtable<...>::insert"),
                         own("kv::Store::put", line_a), engine(engine_frame)}});
  f.accesses.push_back({"read of size 4",
                        thread_b,
                        {lib("std::_Hashtable<...>::find"),
                         own("kv::Store::get", line_b), engine(engine_frame)}});
  return f;
}

TEST(FindingGroupKey, OneRaceFromEitherSideThreadsAndPathsAside) {
  const std::string key = report::finding_group_key(race(1, 2, 20, 30, "a"));
  EXPECT_EQ(report::finding_group_key(race(5, 7, 20, 30, "b")), key);
  // The same pair reported from the other side.
  Finding swapped = race(2, 1, 20, 30, "a");
  std::swap(swapped.accesses[0], swapped.accesses[1]);
  swapped.accesses[0].what = "write of size 1";
  EXPECT_EQ(report::finding_group_key(swapped), key);
  // Other store lines, or another kind, are another finding.
  EXPECT_NE(report::finding_group_key(race(1, 2, 21, 30, "a")), key);
  Finding uaf = race(1, 2, 20, 30, "a");
  uaf.kind = FindingKind::kUseAfterFree;
  EXPECT_NE(report::finding_group_key(uaf), key);
}

TEST(FindingGroupKey, FindingsWithoutStacksGroupBySubjectFrame) {
  Finding a{FindingKind::kNotLinearizable, "invariant", "lost s0", "", {}, {}};
  Finding b = a;
  b.summary = "lost s1";
  EXPECT_EQ(report::finding_group_key(a), report::finding_group_key(b));
  b.subject_frame = own("kv::Store::put", 3);
  EXPECT_NE(report::finding_group_key(a), report::finding_group_key(b));
  b.oracle = "linearizability";
  a.subject_frame = b.subject_frame;
  EXPECT_NE(report::finding_group_key(a), report::finding_group_key(b));
}

CaseResult case_of(Mode mode, int runs, int schedules, int first_failing) {
  CaseResult c;
  c.mode = mode;
  c.runs = runs;
  c.schedules = schedules;
  c.first_failing = first_failing;
  c.runs_with_finding = first_failing >= 0 ? runs : 0;
  return c;
}

TEST(WhatRan, RunsPerStressCaseAndSchedulesPerControlledCase) {
  GateOptions options;
  options.modes = {Mode::kStress, Mode::kControlled};
  options.run.runs = 20;
  options.run.request.seed = 3;
  const std::vector<CaseResult> cases = {
      case_of(Mode::kStress, 20, 0, -1),
      case_of(Mode::kControlled, 1, 5, 4),
      case_of(Mode::kControlled, 1, 1000, -1),
  };
  EXPECT_EQ(report::what_ran(cases, options),
            "stress: 20 runs per case; controlled (pct, up to 1000 schedules "
            "per search): 1 search per case, 5 to 1000 schedules tried per "
            "case; seed 3");
  options.modes = {Mode::kControlled};
  EXPECT_EQ(report::what_ran({cases[1]}, options),
            "controlled (pct, up to 1000 schedules per search): 1 search per "
            "case, 5 schedules tried per case; seed 3");
  // Cases that ran fewer runs than asked (a shard, an interrupted gate) say
  // so.
  EXPECT_EQ(report::what_ran({case_of(Mode::kStress, 20, 0, -1),
                              case_of(Mode::kStress, 2, 0, -1)},
                             GateOptions{}),
            "stress: 2 to 20 runs per case; seed 1");
}

TEST(WhatRan, PerCaseEffortInItsModesUnit) {
  EXPECT_EQ(report::runs_text(case_of(Mode::kStress, 20, 0, 1), 3),
            "3/20 runs");
  EXPECT_EQ(report::runs_text(case_of(Mode::kControlled, 1, 5, 4), 1),
            "1/1 search");
  EXPECT_EQ(report::effort_text(case_of(Mode::kControlled, 1, 5, 4)),
            "schedule 5 of 5");
  EXPECT_EQ(report::effort_text(case_of(Mode::kControlled, 1, 1000, -1)),
            "1000 schedules");
  EXPECT_EQ(report::effort_text(case_of(Mode::kControlled, 3, 1200, 7)),
            "3/3 searches, 1200 schedules");
  EXPECT_EQ(report::effort_text(case_of(Mode::kStress, 20, 0, -1)),
            "0/20 runs");
}

}  // namespace
}  // namespace racelab
