// PersistentMap against std::map: the same entries after any sequence of
// changes, old versions untouched by changes to their copies, values replaced
// in place only when no other version shares them, and one shape (so
// equality and hash) whatever order the entries came in.
#include "racelab/persistent_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace racelab {
namespace {

using Map = PersistentMap<std::string, std::string>;
using Entries = std::vector<std::pair<std::string, std::string>>;

Entries entries_of(const Map& m) {
  Entries out;
  m.for_each([&](const std::string& k, const std::string& v) {
    out.emplace_back(k, v);
  });
  return out;
}
Entries entries_of(const std::map<std::string, std::string>& m) {
  return Entries(m.begin(), m.end());
}

TEST(PersistentMap, FollowsStdMapThroughRandomChanges) {
  std::mt19937 rng(7);
  Map map;
  std::map<std::string, std::string> reference;
  for (int i = 0; i < 5000; ++i) {
    const std::string key = "k" + std::to_string(rng() % 64);
    if (rng() % 3 == 0) {
      EXPECT_EQ(map.erase(key), reference.erase(key) > 0) << key;
    } else {
      const std::string value = std::to_string(i);
      map.set(key, value);
      reference[key] = value;
    }
    ASSERT_EQ(map.size(), reference.size());
    const std::string probe = "k" + std::to_string(rng() % 64);
    const std::string* found = map.find(probe);
    auto it = reference.find(probe);
    ASSERT_EQ(found != nullptr, it != reference.end()) << probe;
    if (found != nullptr) EXPECT_EQ(*found, it->second);
  }
  EXPECT_EQ(entries_of(map), entries_of(reference));
}

TEST(PersistentMap, ACopyIsNotChangedByChangesToTheOriginal) {
  Map map;
  for (int i = 0; i < 100; ++i) map.set("k" + std::to_string(i), "v");
  const Map before = map;
  const Entries before_entries = entries_of(before);
  map.set("k5", "changed");
  map.set("new", "v");
  EXPECT_TRUE(map.erase("k50"));
  EXPECT_FALSE(map.erase("absent"));
  EXPECT_EQ(entries_of(before), before_entries);
  EXPECT_EQ(*before.find("k5"), "v");
  EXPECT_EQ(*map.find("k5"), "changed");
  EXPECT_FALSE(map.contains("k50"));
  EXPECT_TRUE(before.contains("k50"));
  EXPECT_FALSE(map == before);
}

TEST(PersistentMap, AValueIsReplacedInPlaceOnlyWhenNoOtherVersionSharesIt) {
  Map map;
  for (int i = 0; i < 32; ++i) map.set("k" + std::to_string(i), "a");
  const std::string* where = map.find("k7");
  map.set("k7", "b");  // no other version: the same node, rewritten
  EXPECT_EQ(map.find("k7"), where);
  const Map copy = map;
  map.set("k7", "c");  // shared with `copy`: copied
  EXPECT_NE(map.find("k7"), copy.find("k7"));
  EXPECT_EQ(*copy.find("k7"), "b");
  EXPECT_EQ(*map.find("k7"), "c");
  // Equality and hash after changes in place: those of the same entries
  // built in another order.
  for (int i = 0; i < 32; i += 3) map.set("k" + std::to_string(i), "d");
  Map fresh;
  for (int i = 31; i >= 0; --i) {
    fresh.set("k" + std::to_string(i), i == 7 ? "c" : (i % 3 == 0 ? "d" : "a"));
  }
  EXPECT_TRUE(map == fresh);
  EXPECT_EQ(map.hash(), fresh.hash());
  EXPECT_EQ(entries_of(map), entries_of(fresh));
}

TEST(PersistentMap, EqualEntriesAreEqualWhateverTheOrderTheyCameIn) {
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back("k" + std::to_string(i));
  Map forward, shuffled;
  for (const std::string& k : keys) forward.set(k, k + "=");
  std::mt19937 rng(3);
  std::shuffle(keys.begin(), keys.end(), rng);
  // Detours: entries set, overwritten and erased again on the way.
  for (const std::string& k : keys) {
    shuffled.set(k, "other");
    shuffled.set("extra" + k, "x");
    shuffled.set(k, k + "=");
    shuffled.erase("extra" + k);
  }
  EXPECT_TRUE(forward == shuffled);
  EXPECT_EQ(forward.hash(), shuffled.hash());
  shuffled.set("k7", "different");
  EXPECT_FALSE(forward == shuffled);
  EXPECT_NE(forward.hash(), shuffled.hash());
  shuffled.set("k7", "k7=");
  EXPECT_TRUE(forward == shuffled);
}

TEST(PersistentMap, AWalkStopsWhenAskedTo) {
  Map map;
  for (int i = 0; i < 10; ++i) map.set(std::to_string(i), "v");
  int visited = 0;
  map.for_each(
      [&](const std::string&, const std::string&) { return ++visited < 3; });
  EXPECT_EQ(visited, 3);
  EXPECT_TRUE(Map() == Map());
  EXPECT_EQ(Map().hash(), 0u);
  EXPECT_TRUE(Map().empty());
}

}  // namespace
}  // namespace racelab
