// A kit test binary whose sanitizer runtime dies: an allocation larger than
// the sanitizer's allocator supports is a fatal error (TSan reports
// "requested allocation size ... exceeds maximum supported size" and dies,
// allocator_may_return_null being off). Kit binaries run with TSan's
// exitcode=0, so without the kit's death callback this would exit 0;
// tests/kit/run_direct.sh checks that it exits non-zero with the kit's line.
#include <cstddef>
#include <cstdlib>

#include "racelab/gtest.h"

namespace racelab {
namespace {

TEST(DirectRun, TheSanitizerDies) {
  volatile std::size_t huge = static_cast<std::size_t>(1) << 50;  // 1 PiB
  void* volatile p = std::malloc(huge);
  // Only reached when the runtime did not die (no sanitizer).
  std::free(p);
  GTEST_SKIP() << "the allocation did not kill the runtime (no sanitizer?)";
}

}  // namespace
}  // namespace racelab
