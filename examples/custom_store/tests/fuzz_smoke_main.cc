// A driver for the fuzz target without libFuzzer: feeds it a few thousand
// pseudo-random inputs (the correct store must never abort). Build the same
// target with -fsanitize=fuzzer for real fuzzing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size);

int main() {
  std::mt19937 rng(7);
  int runs = 0;
  for (; runs < 2000; ++runs) {
    std::vector<std::uint8_t> input(rng() % 64);
    for (auto& b : input) b = static_cast<std::uint8_t>(rng());
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("fuzz smoke: %d inputs, no finding\n", runs);
  return 0;
}
