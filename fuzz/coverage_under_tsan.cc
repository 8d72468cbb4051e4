// Marks libFuzzer's coverage counters as benign races for TSan (see the
// header for why).
#include "coverage_under_tsan.h"

#include <cstddef>
#include <cstdint>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_FUZZ_TSAN 1
#endif
#endif

#ifdef RACELAB_FUZZ_TSAN
extern "C" {
// Defined by the linker when the section exists (weak: it may not).
extern std::uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern std::uint8_t __stop___sancov_cntrs[] __attribute__((weak));
// Defined by the sanitizer runtime with stack-depth coverage.
extern thread_local std::uintptr_t __sancov_lowest_stack __attribute__((weak));
void AnnotateBenignRaceSized(const char* file, int line,
                             const volatile void* mem, std::size_t size,
                             const char* description);
}
#endif

namespace racelab::fuzz {

void tolerate_coverage_writes() {
#ifdef RACELAB_FUZZ_TSAN
  if (__start___sancov_cntrs != nullptr &&
      +__stop___sancov_cntrs > +__start___sancov_cntrs) {
    AnnotateBenignRaceSized(__FILE__, __LINE__, __start___sancov_cntrs,
                            static_cast<std::size_t>(__stop___sancov_cntrs -
                                                     __start___sancov_cntrs),
                            "libFuzzer's inline 8-bit coverage counters");
  }
  if (&__sancov_lowest_stack != nullptr) {
    AnnotateBenignRaceSized(__FILE__, __LINE__, &__sancov_lowest_stack,
                            sizeof(__sancov_lowest_stack),
                            "libFuzzer's stack-depth coverage");
  }
#endif
}

}  // namespace racelab::fuzz
