// Fuzz target: the program text of schedule files, F::parse and
// decode_program<F> on arbitrary text, for both families. Neither may crash
// nor throw anything but InputError (racelab/input_error.h); what parses must
// print back (describe) to text that parses to the same operation.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint_family.h"
#include "racelab/controlled_runner.h"
#include "racelab/input_error.h"
#include "racelab/op_text.h"
#include "state_family.h"

namespace {

template <class F>
void check_family(const std::string& text) {
  // One operation.
  if (auto op = F::parse(text)) {
    const std::string printed = F::describe(*op);
    auto again = F::parse(printed);
    if (!again || F::describe(*again) != printed) {
      std::fprintf(stderr, "%s: '%s' parses, prints as '%s', which %s\n",
                   F::kName, text.c_str(), printed.c_str(),
                   again ? "prints differently" : "does not parse");
      std::abort();
    }
  }
  // A whole program: lines separated by '\n'.
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      lines.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  try {
    auto program = racelab::decode_program<F>(lines);
    std::vector<std::string> encoded = racelab::encode_program<F>(program);
    auto again = racelab::decode_program<F>(encoded);
    if (racelab::encode_program<F>(again) != encoded) {
      std::fprintf(stderr, "%s: program text does not round-trip\n", F::kName);
      std::abort();
    }
  } catch (const racelab::InputError&) {
    // Rejected with a message: fine.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)racelab::parse_op_text(text);
  (void)racelab::split_program_line(text);
  check_family<racelab::checkpoint::CheckpointFamily>(text);
  check_family<racelab::state::StateFamily>(text);
  return 0;
}
