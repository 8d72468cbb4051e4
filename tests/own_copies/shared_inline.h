// An inline function that both sides of the test program call: the
// harness-path unit (harness_side.cc) and the store (store_side.cc). Kept out
// of line, so that each unit emits a weak copy and the linker keeps one.
#ifndef RACELAB_TESTS_OWN_COPIES_SHARED_INLINE_H_
#define RACELAB_TESTS_OWN_COPIES_SHARED_INLINE_H_

namespace racelab::own_copies_test {

[[gnu::noinline]] inline void bump(int* counter) { ++*counter; }

// Defined in harness_side.cc.
int harness_bumps(int times);

}  // namespace racelab::own_copies_test

#endif  // RACELAB_TESTS_OWN_COPIES_SHARED_INLINE_H_
