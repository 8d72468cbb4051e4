// Tests of racelab::sched::Fiber: switching, finishing, restarting, the guard
// page, and per-fiber exception state.
#include "racelab/internal/sched/fiber.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace racelab::sched {
namespace {

// A bare switch carries no happens-before (the scheduler relies on that), so
// these tests, whose fibers share plain data, hand it over explicitly, as a
// real hand-off through a lock would.
void hand_over(Fiber& from, Fiber& to) {
  from.release_to(to);
  from.switch_to(to);
}

// Shared between a test and its fibers; they all run on the test's thread.
struct PingPong {
  Fiber* main = nullptr;
  Fiber* self = nullptr;
  std::vector<std::string> log;
};

void counting_entry(void* arg) {
  auto* state = static_cast<PingPong*>(arg);
  state->log.push_back("fiber step 1");
  hand_over(*state->self, *state->main);
  state->log.push_back("fiber step 2");
  // Returning finishes the fiber and switches back to whoever resumed it.
}

TEST(FiberTest, SwitchesAndFinishes) {
  std::unique_ptr<Fiber> main = Fiber::for_current_thread();
  PingPong state;
  Fiber fiber(&counting_entry, &state);
  state.main = main.get();
  state.self = &fiber;

  EXPECT_FALSE(fiber.has_started());
  hand_over(*main, fiber);
  state.log.push_back("main after 1");
  EXPECT_TRUE(fiber.has_started());
  EXPECT_FALSE(fiber.is_finished());
  hand_over(*main, fiber);
  main->acquire_from(fiber);  // it finished: join it
  state.log.push_back("main after 2");
  EXPECT_TRUE(fiber.is_finished());
  EXPECT_TRUE(main->is_running());
  EXPECT_FALSE(fiber.is_running());
  EXPECT_EQ(state.log,
            (std::vector<std::string>{"fiber step 1", "main after 1",
                                      "fiber step 2", "main after 2"}));
}

TEST(FiberTest, RestartRunsTheEntryAgainFromTheTop) {
  std::unique_ptr<Fiber> main = Fiber::for_current_thread();
  PingPong state;
  Fiber fiber(&counting_entry, &state);
  state.main = main.get();
  state.self = &fiber;

  hand_over(*main, fiber);  // "fiber step 1", then parked mid-function
  fiber.restart();          // abandon it there
  EXPECT_FALSE(fiber.has_started());
  hand_over(*main, fiber);
  hand_over(*main, fiber);
  main->acquire_from(fiber);
  EXPECT_TRUE(fiber.is_finished());
  fiber.restart();  // a finished fiber can be restarted too
  hand_over(*main, fiber);
  EXPECT_EQ(state.log,
            (std::vector<std::string>{"fiber step 1", "fiber step 1",
                                      "fiber step 2", "fiber step 1"}));
  hand_over(*main, fiber);  // let it finish so it is not left running
  main->acquire_from(fiber);
}

struct Ring {
  Fiber* main = nullptr;
  std::vector<Fiber*> fibers;
  std::vector<int> order;
  int rounds = 3;
};

struct RingMember {
  Ring* ring;
  int index;
};

void ring_entry(void* arg) {
  auto* member = static_cast<RingMember*>(arg);
  Ring* ring = member->ring;
  Fiber* self = ring->fibers[static_cast<std::size_t>(member->index)];
  for (int round = 0; round < ring->rounds; ++round) {
    ring->order.push_back(member->index);
    const std::size_t next = static_cast<std::size_t>(member->index) + 1;
    hand_over(*self,
              next < ring->fibers.size() ? *ring->fibers[next] : *ring->main);
  }
}

TEST(FiberTest, FibersSwitchDirectlyToEachOther) {
  std::unique_ptr<Fiber> main = Fiber::for_current_thread();
  Ring ring;
  ring.main = main.get();
  std::vector<RingMember> members = {{&ring, 0}, {&ring, 1}, {&ring, 2}};
  std::vector<std::unique_ptr<Fiber>> fibers;
  for (RingMember& member : members) {
    fibers.push_back(std::make_unique<Fiber>(&ring_entry, &member));
    ring.fibers.push_back(fibers.back().get());
  }
  for (int round = 0; round < ring.rounds; ++round) {
    hand_over(*main, *ring.fibers[0]);
  }
  EXPECT_EQ(ring.order, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
  // Resumed once more, each fiber leaves its loop and returns, which switches
  // back to the fiber that resumed it: main.
  for (auto& fiber : fibers) {
    hand_over(*main, *fiber);
    main->acquire_from(*fiber);
    EXPECT_TRUE(fiber->is_finished());
  }
}

// The permissions of the mapping that contains `address`, from
// /proc/self/maps ("rw-p", "---p"), or "" when none does.
std::string permissions_at(const void* address) {
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range;
    std::string permissions;
    fields >> range >> permissions;
    const std::size_t dash = range.find('-');
    const std::uintptr_t begin =
        std::stoull(range.substr(0, dash), nullptr, 16);
    const std::uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (begin <= target && target < end) return permissions;
  }
  return "";
}

void idle_entry(void*) {}

TEST(FiberTest, StackHasAGuardPageBelowIt) {
  Fiber fiber(&idle_entry, nullptr, 64 * 1024);
  const char* bottom = static_cast<const char*>(fiber.stack_bottom());
  ASSERT_NE(bottom, nullptr);
  EXPECT_GE(fiber.stack_size(), 64u * 1024);
  EXPECT_EQ(fiber.stack_size() % Fiber::guard_size(), 0u);
  EXPECT_EQ(permissions_at(bottom), "rw-p");
  EXPECT_EQ(permissions_at(bottom + fiber.stack_size() - 1), "rw-p");
  EXPECT_EQ(permissions_at(bottom - 1), "---p");
  EXPECT_EQ(permissions_at(bottom - Fiber::guard_size()), "---p");
}

// Fills a frame on the fiber's stack and says where it was.
void scribble_entry(void* arg) {
  volatile char frame[2048];
  for (std::size_t i = 0; i < sizeof frame; ++i) {
    frame[i] = static_cast<char>(i);
  }
  *static_cast<const void**>(arg) = const_cast<const char*>(&frame[0]);
}

// The next fiber of the same size gets a destroyed fiber's stack, and what
// the two write there is no race: destroying a fiber joins it. Without that
// join ThreadSanitizer reports the second fiber's writes to the frame, and
// the test fails at exit.
TEST(FiberTest, ADestroyedFibersStackGoesToTheNextFiberOfItsSize) {
  auto main = Fiber::for_current_thread();
  const void* first_bottom = nullptr;
  const void* first_frame = nullptr;
  {
    Fiber first(&scribble_entry, &first_frame, 64 * 1024);
    first_bottom = first.stack_bottom();
    main->switch_to(first);  // runs to its end
  }
  const void* second_frame = nullptr;
  Fiber second(&scribble_entry, &second_frame, 64 * 1024);
  EXPECT_EQ(second.stack_bottom(), first_bottom);
  main->switch_to(second);
  main->acquire_from(second);
  EXPECT_EQ(second_frame, first_frame);
  // A fiber of another size maps a stack of its own.
  Fiber other(&idle_entry, nullptr, 128 * 1024);
  EXPECT_NE(other.stack_bottom(), first_bottom);
}

void write_below_stack(const Fiber& fiber) {
  volatile char* below =
      static_cast<char*>(const_cast<void*>(fiber.stack_bottom())) - 1;
  *below = 1;
}

TEST(FiberDeathTest, WritingToTheGuardPageCrashes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Fiber fiber(&idle_entry, nullptr, 64 * 1024);
  EXPECT_DEATH(write_below_stack(fiber), "");
}

TEST(FiberDeathTest, SwitchingToAFinishedFiberAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        std::unique_ptr<Fiber> main = Fiber::for_current_thread();
        Fiber fiber(&idle_entry, nullptr);
        main->switch_to(fiber);
        main->switch_to(fiber);
      },
      "switch to a finished fiber");
}

// Exception state is per fiber: a fiber switching away from inside a catch
// block must find its own exception when it rethrows, whatever the others did
// meanwhile.
struct CatchState {
  Fiber* main = nullptr;
  Fiber* self = nullptr;
  std::string rethrown;
  int uncaught_seen_by_other = -1;
};

void catching_entry(void* arg) {
  auto* state = static_cast<CatchState*>(arg);
  try {
    try {
      throw std::runtime_error("mine");
    } catch (const std::exception&) {
      hand_over(*state->self, *state->main);  // inside the handler
      throw;
    }
  } catch (const std::exception& e) {
    state->rethrown = e.what();
  }
}

TEST(FiberTest, EachFiberKeepsItsOwnExceptionState) {
  std::unique_ptr<Fiber> main = Fiber::for_current_thread();
  CatchState state;
  Fiber fiber(&catching_entry, &state);
  state.main = main.get();
  state.self = &fiber;
  hand_over(*main, fiber);
  // The fiber is suspended inside its catch block. Catch something here.
  EXPECT_EQ(std::uncaught_exceptions(), 0);
  try {
    throw std::logic_error("theirs");
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "theirs");
    hand_over(*main, fiber);  // the fiber rethrows and finishes
  }
  main->acquire_from(fiber);
  EXPECT_TRUE(fiber.is_finished());
  EXPECT_EQ(state.rethrown, "mine");
}

}  // namespace
}  // namespace racelab::sched
