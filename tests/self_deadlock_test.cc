// The stress-mode self-deadlock check (sync.cc): a thread that requests a
// racelab lock it already holds is reported at once, with the lock's name and
// both modes, instead of hanging; released, nested-distinct and shared-then-
// released locks are not.
#include <gtest/gtest.h>

#include <string>

#include "racelab/internal/scheduling_hooks.h"
#include "racelab/sync.h"

namespace racelab {
namespace {

// The handler does not return into the lock: it throws the message to the
// test, which the lock call lets through.
struct SelfDeadlock {
  std::string message;
};

void throw_self_deadlock(const char* message) { throw SelfDeadlock{message}; }

class SelfDeadlockTest : public ::testing::Test {
 protected:
  SelfDeadlockTest() { set_self_deadlock_handler(&throw_self_deadlock); }
  ~SelfDeadlockTest() override { set_self_deadlock_handler(nullptr); }

  // The message of the self-deadlock `lock_again` reports, or "".
  template <class F>
  static std::string reported(F lock_again) {
    try {
      lock_again();
    } catch (const SelfDeadlock& d) {
      return d.message;
    }
    return "";
  }
};

TEST_F(SelfDeadlockTest, LockingAHeldMutexAgainIsReported) {
  Mutex mu("store.mu");
  mu.lock();
  EXPECT_EQ(reported([&] { mu.lock(); }),
            "thread requests exclusive lock on 'store.mu' while it already "
            "holds it exclusive: self-deadlock (the lock is not re-entrant)");
  mu.unlock();
}

TEST_F(SelfDeadlockTest, WritingUnderOnesOwnReadLockIsReported) {
  // hold_lock x reentrant_yield: set() from the callback of all().
  SharedMutex mu("state.mu");
  mu.lock_shared();
  EXPECT_EQ(reported([&] { mu.lock(); }),
            "thread requests exclusive lock on 'state.mu' while it already "
            "holds it shared: self-deadlock (the lock is not re-entrant)");
  mu.unlock_shared();
}

TEST_F(SelfDeadlockTest, ReleasedAndDistinctLocksAreFine) {
  Mutex a("a"), b("b");
  SharedMutex s("s");
  EXPECT_EQ(reported([&] {
              a.lock();
              a.unlock();
              a.lock();  // released first: fine
              b.lock();  // another lock while holding a: fine
              b.unlock();
              a.unlock();
              s.lock_shared();
              s.unlock_shared();
              s.lock();
              s.unlock();
            }),
            "");
}

TEST_F(SelfDeadlockTest, TheCheckForgetsALockOnceReleased) {
  Mutex mu("mu");
  mu.lock();
  mu.unlock();
  {
    MutexLock hold(mu);
    EXPECT_NE(reported([&] { mu.lock(); }), "");
  }
  // After the guard released it, locking is fine again.
  EXPECT_EQ(reported([&] {
              mu.lock();
              mu.unlock();
            }),
            "");
}

}  // namespace
}  // namespace racelab
