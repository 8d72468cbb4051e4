// The harness's side: compiled as the harness's bookkeeping is
// (RACELAB_HARNESS_PATH: TSan instruments no plain access here), and linked
// first, so that its copy of bump() is the one a linker would keep.
#include "shared_inline.h"

namespace racelab::own_copies_test {

int harness_bumps(int times) {
  int counter = 0;
  for (int i = 0; i < times; ++i) bump(&counter);
  return counter;
}

}  // namespace racelab::own_copies_test
