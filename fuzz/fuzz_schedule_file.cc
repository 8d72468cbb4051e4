// Fuzz target: racelab::sched::parse_schedule on arbitrary bytes. It must
// never crash, and whatever it accepts must survive a round trip: written back
// with write_schedule and parsed again, the file is the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "racelab/internal/sched/schedule_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using racelab::sched::ScheduleFile;
  using racelab::sched::ScheduleFileError;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ScheduleFile file;
  try {
    file = racelab::sched::parse_schedule(text, "fuzz");
  } catch (const ScheduleFileError&) {
    return 0;  // rejected, with a message: fine
  }
  std::string written;
  try {
    written = racelab::sched::write_schedule(file);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "accepted a file that cannot be written back: %s\n",
                 e.what());
    std::abort();
  }
  ScheduleFile again;
  try {
    again = racelab::sched::parse_schedule(written, "round-trip");
  } catch (const ScheduleFileError& e) {
    std::fprintf(stderr, "write_schedule produced a file parse rejects: %s\n",
                 e.what());
    std::abort();
  }
  if (!(again == file)) {
    std::fprintf(stderr, "round trip changed the schedule file:\n%s",
                 written.c_str());
    std::abort();
  }
  if (racelab::sched::write_schedule(again) != written) {
    std::fprintf(stderr, "write_schedule is not stable:\n%s", written.c_str());
    std::abort();
  }
  return 0;
}
