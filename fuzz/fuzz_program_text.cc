// Fuzz target: the program text of schedule files, read with the operations
// the checkpoint and state specs declare (checkpoint_spec.h, state_spec.h),
// one operation at a time and as whole programs, on arbitrary text. Neither
// may crash nor throw anything but InputError (racelab/internal/input_error.h);
// what reads must print back to text that reads as the same operations.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint_spec.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/op_text.h"
#include "racelab/spec.h"
#include "state_spec.h"

namespace {

void check_spec(const racelab::SpecRef& spec, const std::string& text) {
  // One operation.
  if (std::optional<std::string> printed =
          racelab::reread_spec_operation(spec, text)) {
    std::optional<std::string> again =
        racelab::reread_spec_operation(spec, *printed);
    if (again != printed) {
      std::fprintf(stderr, "%s: '%s' reads, prints as '%s', which %s\n",
                   spec->name.c_str(), text.c_str(), printed->c_str(),
                   again ? "prints differently" : "does not read");
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
    const std::vector<std::string> printed =
        racelab::reread_spec_program(spec, lines);
    if (racelab::reread_spec_program(spec, printed) != printed) {
      std::fprintf(stderr, "%s: program text does not round-trip\n",
                   spec->name.c_str());
      std::abort();
    }
  } catch (const racelab::InputError&) {
    // Rejected with a message: fine.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  static const racelab::SpecRef* checkpoints =
      new racelab::SpecRef(racelab::checkpoint::checkpoint_spec());
  static const racelab::SpecRef* states =
      new racelab::SpecRef(racelab::state::state_spec());
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)racelab::parse_op_text(text);
  (void)racelab::split_program_line(text);
  check_spec(*checkpoints, text);
  check_spec(*states, text);
  return 0;
}
