// A libFuzzer target for a declared store (spec.h), in one line:
//
//   #include "racelab/fuzz_target.h"
//   #include "racelab/spec.h"
//   RACELAB_SPEC_FUZZ_TARGET(ring_spec());
//
// defines LLVMFuzzerTestOneInput. The input's bytes become a program of the
// spec's operations (logical threads of a few calls each, their arguments
// drawn by the operations' generators from the bytes that follow) and then
// the scheduling decisions of one controlled run (each byte picks among the
// enabled threads; when the bytes run out the current thread goes on). The
// run is judged by the spec's oracles (its invariants, when it has any); on
// a finding the target prints the findings, the program, the decisions and
// the trace (fuzz_report.h, as the built-in targets do), and aborts so that
// libFuzzer keeps the input. Build with -fsanitize=fuzzer (plus thread), or
// link any driver that calls LLVMFuzzerTestOneInput.
#ifndef RACELAB_FUZZ_TARGET_H_
#define RACELAB_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "racelab/internal/fuzz_report.h"
#include "racelab/kit.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_FUZZ_TARGET_TSAN 1
#endif
#endif

#ifdef RACELAB_FUZZ_TARGET_TSAN
extern "C" {
// libFuzzer's inline 8-bit counters (weak: the section may not exist), the
// stack-depth coverage variable, and TSan's benign-race annotation.
extern std::uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern std::uint8_t __stop___sancov_cntrs[] __attribute__((weak));
extern thread_local std::uintptr_t __sancov_lowest_stack __attribute__((weak));
void AnnotateBenignRaceSized(const char* file, int line,
                             const volatile void* mem, std::size_t size,
                             const char* description);
}
#endif

namespace racelab {

// The fuzzer's bytes, consumed front to back; reads past the end give 0.
class FuzzBytes {
 public:
  FuzzBytes(const std::uint8_t* data, std::size_t size)
      : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // Uniform enough in [0, bound), bound > 0.
  int below(int bound) { return static_cast<int>(byte() % bound); }
  bool empty() const { return pos_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

namespace fuzz_internal {

// -fsanitize=fuzzer makes every function bump a coverage counter; TSan
// instruments those writes, and fibers have no happens-before between them,
// so every function two logical threads run would be a "race". Marks the
// counters as benign, once. No-op without TSan or without coverage.
inline void tolerate_coverage_writes() {
#ifdef RACELAB_FUZZ_TARGET_TSAN
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

}  // namespace fuzz_internal
}  // namespace racelab

// LLVMFuzzerTestOneInput for a declared spec (spec.h):
//   RACELAB_SPEC_FUZZ_TARGET(ring_spec());
#define RACELAB_SPEC_FUZZ_TARGET(...)                             \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, \
                                        std::size_t size) {       \
    static const ::racelab::SpecRef racelab_spec =                \
        ::racelab::SpecRef(__VA_ARGS__);                          \
    return ::racelab::fuzz_spec_input(racelab_spec, data, size);  \
  }                                                               \
  static_assert(true, "")

#endif  // RACELAB_FUZZ_TARGET_H_
