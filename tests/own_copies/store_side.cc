// The store's side: two threads call the shared inline function on one int
// with no synchronization, a data race TSan must report inside bump(). It
// does only if this unit's call runs an instrumented copy of bump().
#include <cstdio>
#include <thread>

#include "shared_inline.h"

namespace racelab::own_copies_test {
namespace {

int shared_counter = 0;

void race() {
  std::thread a([] { bump(&shared_counter); });
  std::thread b([] { bump(&shared_counter); });
  a.join();
  b.join();
}

}  // namespace
}  // namespace racelab::own_copies_test

int main() {
  using namespace racelab::own_copies_test;
  const int harness = harness_bumps(3);
  race();
  std::printf("harness bumps %d, store counter %d\n", harness, shared_counter);
  return 0;
}
