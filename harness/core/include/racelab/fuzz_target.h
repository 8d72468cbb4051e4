// A libFuzzer target for any store, from its kit traits, in one line:
//
//   #include "racelab/fuzz_target.h"
//   RACELAB_FUZZ_TARGET(MutexRingTraits);
//
// defines LLVMFuzzerTestOneInput. The input's bytes become a program (2-4
// logical threads of 1-4 operations each, every operation made by
// T::generate_op(bytes, thread) from the bytes that follow) and then the
// scheduling decisions of one controlled run (each byte picks among the
// enabled threads; when the bytes run out the current thread goes on). The
// run is judged by the tsan and linearizability oracles (and the invariants
// of T::fuzz_check, when given); on a finding the target prints the
// findings, the program, the decisions and the trace (fuzz_report.h, as the
// built-in targets do), and aborts so that libFuzzer keeps the input. Optional
// traits members:
//   static std::vector<Op> fuzz_setup();   // operations before the threads
//   static void fuzz_check(const racelab::Program<Op>&,
//                          const racelab::History<Op, Result>&, Store&,
//                          std::vector<racelab::Finding>&);
// Build with -fsanitize=fuzzer (plus thread), or link any driver that calls
// LLVMFuzzerTestOneInput.
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

// Scheduling decisions from the remaining bytes.
class BytesStrategy final : public sched::Strategy {
 public:
  explicit BytesStrategy(FuzzBytes& bytes) : bytes_(bytes) {}
  std::string_view name() const override { return "fuzz"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int current) override {
    if (bytes_.empty()) return sched::fallback_choice(enabled, current);
    return enabled[bytes_.below(static_cast<int>(enabled.size()))];
  }
  bool end_schedule() override { return false; }

 private:
  FuzzBytes& bytes_;
};

template <StoreTraits T>
int fuzz_one_input(const std::uint8_t* data, std::size_t size) {
  using F = typename T::Family;
  using Op = typename F::Op;
  static const bool coverage_tolerated = (tolerate_coverage_writes(), true);
  (void)coverage_tolerated;
  FuzzBytes bytes(data, size);
  Program<Op> program;
  if constexpr (requires { T::fuzz_setup(); }) program.setup = T::fuzz_setup();
  const int threads = 2 + bytes.below(3);
  for (int t = 0; t < threads; ++t) {
    std::vector<Op> ops;
    const int count = 1 + bytes.below(4);
    for (int i = 0; i < count; ++i) ops.push_back(T::generate_op(bytes, t));
    program.threads.push_back(std::move(ops));
  }

  Scenario<F> scenario;
  scenario.name = "fuzz";
  scenario.program = [&program](std::uint64_t, ProgramSize) { return program; };
  OracleSet oracles = OracleSet::selectable();
  oracles.erase(Oracle::kInvariants);
  if constexpr (requires { &T::fuzz_check; }) {
    scenario.check = &T::fuzz_check;
    oracles.insert(Oracle::kInvariants);
  }
  // One scheduler for the process: its fibers are reused from run to run.
  static sched::ControlledScheduler* scheduler = new sched::ControlledScheduler;
  BytesStrategy strategy(bytes);
  strategy.set_records_trace(false);  // with_trace replays a failing input
  RunObservation run = with_trace(
      kit_internal::one_schedule<F>(scenario, &T::make, program, oracles,
                                    *scheduler, strategy),
      [&](sched::Strategy& replay) {
        return kit_internal::one_schedule<F>(scenario, &T::make, program,
                                             oracles, *scheduler, replay);
      });
  if (run.findings.empty()) return 0;
  run.schedule.program = encode_program<F>(program);
  return finish_fuzz_input(traits_store_name<T>(), run, "");
}

}  // namespace fuzz_internal
}  // namespace racelab

// The same for a declared spec (spec.h): RACELAB_SPEC_FUZZ_TARGET(ring_spec())
// (the spec's oracles; its invariants, when it has any). Needs spec.h.
#define RACELAB_SPEC_FUZZ_TARGET(...)                             \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, \
                                        std::size_t size) {       \
    static const ::racelab::SpecRef racelab_spec =                \
        ::racelab::SpecRef(__VA_ARGS__);                          \
    return ::racelab::fuzz_spec_input(racelab_spec, data, size);  \
  }                                                               \
  static_assert(true, "")

#define RACELAB_FUZZ_TARGET(T)                                      \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,   \
                                        std::size_t size) {         \
    return ::racelab::fuzz_internal::fuzz_one_input<T>(data, size); \
  }                                                                 \
  static_assert(true, "")

#endif  // RACELAB_FUZZ_TARGET_H_
