// The vocabulary's name tables: oracles, sets of oracles, finding kinds, sets
// of kinds, and a histogram keyed by kind sets through results.json.
#include <gtest/gtest.h>

#include <set>

#include "racelab/finding.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/json.h"
#include "racelab/kind_set.h"
#include "racelab/oracle.h"

namespace racelab {
namespace {

using enum FindingKind;

TEST(VocabOracle, NamesRoundTrip) {
  std::set<std::string> names;
  for (Oracle o : all_oracles()) {
    ASSERT_EQ(parse_oracle(to_string(o)), o) << to_string(o);
    names.insert(to_string(o));
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kOracleCount));
  EXPECT_EQ(parse_oracle("nope"), std::nullopt);
}

TEST(VocabOracle, TheWireNames) {
  EXPECT_STREQ(to_string(Oracle::kTsan), "tsan");
  EXPECT_STREQ(to_string(Oracle::kAsan), "asan");
  EXPECT_STREQ(to_string(Oracle::kInvariants), "invariants");
  EXPECT_STREQ(to_string(Oracle::kLinearizability), "linearizability");
  EXPECT_STREQ(to_string(Oracle::kGomap), "gomap");
  EXPECT_STREQ(to_string(Oracle::kDeadlock), "deadlock");
  EXPECT_STREQ(to_string(Oracle::kCrash), "crash");
  EXPECT_STREQ(to_string(Oracle::kTimeout), "timeout");
  // Older results.json files name an invariant finding's oracle so.
  EXPECT_EQ(parse_oracle("invariant"), Oracle::kInvariants);
}

TEST(VocabOracleSet, SelectableIsTheDefault) {
  EXPECT_EQ(to_string(OracleSet::selectable()),
            "tsan,invariants,linearizability,gomap");
  for (Oracle o : all_oracles())
    EXPECT_EQ(OracleSet::selectable().contains(o), is_selectable(o));
}

TEST(VocabOracleSet, TextRoundTrips) {
  for (const char* text : {"tsan", "invariants,gomap",
                           "tsan,invariants,linearizability,gomap", "none"}) {
    EXPECT_EQ(to_string(parse_oracle_set(text)), text);
  }
  EXPECT_EQ(parse_oracle_set("all"), OracleSet::selectable());
  EXPECT_TRUE(parse_oracle_set("none").empty());
  // Members print in enum order whatever order they were given in.
  EXPECT_EQ(to_string(parse_oracle_set("gomap,tsan")), "tsan,gomap");
}

TEST(VocabOracleSet, RejectsUnknownAndAlwaysOnOracles) {
  EXPECT_THROW(parse_oracle_set("tsan,typo"), std::invalid_argument);
  EXPECT_THROW(parse_oracle_set(""), std::invalid_argument);
  EXPECT_THROW(parse_oracle_set("invariant"), std::invalid_argument);
  try {
    parse_oracle_set("deadlock");
    FAIL() << "deadlock is always on";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("always on"), std::string::npos);
  }
}

TEST(VocabOracleSet, InsertEraseIterate) {
  OracleSet s;
  EXPECT_TRUE(s.empty());
  s.insert(Oracle::kTimeout);
  s.insert(Oracle::kTsan);
  s.insert(Oracle::kTsan);
  EXPECT_EQ(s.members(),
            (std::vector<Oracle>{Oracle::kTsan, Oracle::kTimeout}));
  s.erase(Oracle::kTsan);
  EXPECT_FALSE(s.contains(Oracle::kTsan));
  EXPECT_EQ(s, OracleSet{Oracle::kTimeout});
}

TEST(VocabFindingKind, NamesRoundTrip) {
  std::set<std::string> names;
  for (FindingKind k : all_finding_kinds()) {
    ASSERT_EQ(parse_finding_kind(to_string(k)), k) << to_string(k);
    names.insert(to_string(k));
  }
  EXPECT_EQ(names.size(), all_finding_kinds().size());
  EXPECT_STREQ(to_string(kInvariantViolation), "invariant_violation");
  EXPECT_EQ(parse_finding_kind("invariant"), std::nullopt);
}

TEST(VocabFindingKind, InvariantViolationComesFromTheInvariantsOracle) {
  const Finding f = invariant_violation("lost s0");
  EXPECT_EQ(f.kind, kInvariantViolation);
  EXPECT_EQ(f.oracle, Oracle::kInvariants);
  EXPECT_EQ(f.summary, "lost s0");
}

TEST(VocabKindSet, TextRoundTrips) {
  EXPECT_EQ(to_string(KindSet{}), "clean");
  EXPECT_EQ(to_string(KindSet{kCrash, kDataRace}), "data_race+crash");
  for (const KindSet& s :
       {KindSet{}, KindSet{kDataRace}, KindSet{kDataRace, kCrash, kTimeout},
        KindSet{kInvariantViolation, kNotLinearizable}}) {
    EXPECT_EQ(parse_kind_set(to_string(s)), s) << to_string(s);
  }
  EXPECT_EQ(parse_kind_set("data_race+typo"), std::nullopt);
  EXPECT_EQ(parse_kind_set(""), std::nullopt);
  EXPECT_EQ(parse_kind_set("data_race+"), std::nullopt);
}

TEST(VocabKindSet, OrderedAsTheirNamesRead) {
  std::vector<KindSet> sets = {KindSet{kDeadlock}, KindSet{kDataRace, kCrash},
                               KindSet{}, KindSet{kDataRace},
                               KindSet{kNotLinearizable}};
  std::sort(sets.begin(), sets.end());
  std::vector<std::string> names;
  for (const KindSet& s : sets) names.push_back(to_string(s));
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(names, sorted);
  EXPECT_EQ(names.front(), "clean");
}

TEST(VocabHistogram, RoundTripsThroughResultsJson) {
  const std::map<KindSet, int> histogram = {{KindSet{}, 2},
                                            {KindSet{kDataRace}, 3},
                                            {KindSet{kDataRace, kCrash}, 1},
                                            {KindSet{kInvariantViolation}, 4}};
  const nlohmann::json j = histogram_to_json(histogram);
  EXPECT_EQ(j.at("clean"), 2);
  EXPECT_EQ(j.at("data_race+crash"), 1);
  EXPECT_EQ(j.at("invariant_violation"), 4);
  EXPECT_EQ(histogram_from_json(nlohmann::json::parse(j.dump())), histogram);
  EXPECT_THROW(histogram_from_json(nlohmann::json{{"data_race+typo", 1}}),
               nlohmann::json::exception);
}

TEST(VocabFinding, OracleRoundTripsThroughResultsJson) {
  for (Oracle o : all_oracles()) {
    Finding f{kDataRace, o, "s", "", std::nullopt, {}};
    const nlohmann::json j = to_json(f);
    EXPECT_EQ(j.at("oracle"), to_string(o));
    EXPECT_EQ(finding_from_json(j).oracle, o);
  }
  nlohmann::json old = to_json(invariant_violation("lost"));
  old["oracle"] = "invariant";
  EXPECT_EQ(finding_from_json(old).oracle, Oracle::kInvariants);
  old["oracle"] = "typo";
  EXPECT_THROW(finding_from_json(old), nlohmann::json::exception);
}

Frame frame(std::string file, FrameOrigin origin) {
  return {"f", std::move(file), 1, origin};
}

TEST(VocabSourceRoots, FirstFrameUnderARoot) {
  const std::vector<Frame> stack = {
      frame("/usr/include/c++/12/bits/stl_vector.h", FrameOrigin::kLibrary),
      frame("scenarios/state_spec.cc", FrameOrigin::kRacelab),
      frame("examples/custom_store/ring/ring.h", FrameOrigin::kUser),
      frame("subjects/state/snapshot.cc", FrameOrigin::kUser)};
  set_source_roots({"subjects/"});
  ASSERT_NE(first_subject_frame(stack), nullptr);
  EXPECT_EQ(first_subject_frame(stack)->file, "subjects/state/snapshot.cc");
  // Without roots (a kit user's process): the first frame of user origin.
  set_source_roots({});
  ASSERT_NE(first_subject_frame(stack), nullptr);
  EXPECT_EQ(first_subject_frame(stack)->file,
            "examples/custom_store/ring/ring.h");
  EXPECT_EQ(first_subject_frame({stack[0], stack[1]}), nullptr);
}

}  // namespace
}  // namespace racelab
