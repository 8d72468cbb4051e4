// Sequential conformance: every variant of a family, called from one thread,
// behaves exactly like the family's sequential model. The buggy variants are
// buggy only under concurrency, so they pass too.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "checkpoint/checkpoint_model.h"
#include "state/state_model.h"
#include "subject_catalog.h"

namespace racelab {
namespace {

class CheckpointConformance : public ::testing::TestWithParam<
                                  SubjectEntry<checkpoint::CheckpointStore>> {};

TEST_P(CheckpointConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 rng(seed);
    auto store = GetParam().make();
    checkpoint::CheckpointModel model;
    for (int step = 0; step < 200; ++step) {
      std::string session = "s" + std::to_string(rng() % 4);
      switch (rng() % 3) {
        case 0: {
          std::string payload = "p" + std::to_string(step);
          ASSERT_EQ(store->commit(session, payload),
                    model.commit(session, payload))
              << "seed " << seed << " step " << step;
          break;
        }
        case 1: {
          checkpoint::CheckpointId id = rng() % 8;
          ASSERT_EQ(store->lookup(session, id), model.lookup(session, id))
              << "seed " << seed << " step " << step;
          break;
        }
        default: {
          checkpoint::IndexView view = store->retrieve_index(session);
          std::vector<checkpoint::CheckpointId> ids(view.ids().begin(),
                                                    view.ids().end());
          ASSERT_EQ(ids, model.retrieve_index(session))
              << "seed " << seed << " step " << step;
        }
      }
    }
  }
}

TEST_P(CheckpointConformance, UnknownSessionIsEmpty) {
  auto store = GetParam().make();
  EXPECT_EQ(store->lookup("nobody", 0), std::nullopt);
  EXPECT_TRUE(store->retrieve_index("nobody").ids().empty());
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CheckpointConformance,
                         ::testing::ValuesIn(checkpoint_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

class StateConformance
    : public ::testing::TestWithParam<SubjectEntry<state::StateStore>> {};

std::map<std::string, std::string> contents_of(state::StateStore& store,
                                               int stop_after = 0) {
  std::map<std::string, std::string> out;
  int n = 0;
  store.all([&](const std::string& k, const std::string& v) {
    EXPECT_TRUE(out.emplace(k, v).second) << "key yielded twice: " << k;
    return stop_after == 0 || ++n < stop_after;
  });
  return out;
}

TEST_P(StateConformance, MatchesModelOnRandomSequentialPrograms) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    std::mt19937_64 rng(seed);
    auto store = GetParam().make();
    state::StateModel model;
    for (int step = 0; step < 200; ++step) {
      std::string key = "k" + std::to_string(rng() % 12);
      switch (rng() % 4) {
        case 0: {
          std::string value = "v" + std::to_string(step);
          store->set(key, value);
          model.set(key, value);
          break;
        }
        case 1:
          ASSERT_EQ(store->get(key), model.get(key))
              << "seed " << seed << " step " << step;
          break;
        case 2:
          ASSERT_EQ(store->erase(key), model.erase(key))
              << "seed " << seed << " step " << step;
          break;
        default: {
          std::map<std::string, std::string> want(model.contents().begin(),
                                                  model.contents().end());
          ASSERT_EQ(contents_of(*store), want)
              << "seed " << seed << " step " << step;
        }
      }
    }
  }
}

TEST_P(StateConformance, AllStopsWhenYieldReturnsFalse) {
  auto store = GetParam().make();
  for (int i = 0; i < 10; ++i) store->set("k" + std::to_string(i), "v");
  std::map<std::string, std::string> some = contents_of(*store, 3);
  EXPECT_EQ(some.size(), 3u);
  // The store is still usable after an early stop (no lock left behind).
  store->set("after", "stop");
  EXPECT_EQ(store->get("after"), "stop");
}

INSTANTIATE_TEST_SUITE_P(AllVariants, StateConformance,
                         ::testing::ValuesIn(state_subjects()),
                         [](const auto& info) {
                           return std::string(info.param.variant);
                         });

}  // namespace
}  // namespace racelab
