// Plain GoogleTest tests of the correct ring, written with no racelab API:
// linked with racelab::runtime and registered with racelab_discover_tests,
// each runs as its own CTest test under racelab's controlled scheduler,
// which explores the interleavings of its threads.
#include <gtest/gtest.h>

#include <thread>

#include "ring/ring_store.h"

TEST(MutexRing, TwoPushersFillItOnce) {
  auto ring = ring::make_mutex_ring();
  int pushed = 0;
  std::thread a([&] { pushed += ring->push(1) ? 1 : 0; });
  const bool b = ring->push(2);
  a.join();
  EXPECT_EQ(pushed + (b ? 1 : 0), 2);
  EXPECT_EQ(ring->size(), 2);
}

TEST(MutexRing, APopNeverSeesAHalfPush) {
  auto ring = ring::make_mutex_ring();
  std::thread pusher([&] { ring->push(7); });
  const std::optional<int> got = ring->pop();
  pusher.join();
  EXPECT_TRUE(!got || *got == 7);
}

TEST(MutexRing, EmptyPopsNothing) { EXPECT_FALSE(ring::make_mutex_ring()->pop()); }
