// The channel between `racelab explore -- ./program` and one run of the
// program: a shared memory file the parent creates and passes by descriptor
// (environment variable RACELAB_PROGRAM_CHANNEL), which the program's
// racelab::runtime maps before any static constructor of the program runs.
// The parent writes how to schedule and which descriptor takes the
// sanitizer's reports; the program writes its decisions as it makes them (so
// a crash or a hang still tells how far the schedule got), then how the run
// ended. The runtime also marks the program's ELF file (kRuntimeSection), so
// that racelab can refuse a program without it before running anything.
#ifndef RACELAB_PROGRAM_CHANNEL_H_
#define RACELAB_PROGRAM_CHANNEL_H_

#include <cstddef>
#include <cstdint>

namespace racelab::program_channel {

inline constexpr const char* kEnvironmentVariable = "RACELAB_PROGRAM_CHANNEL";

// The ELF section racelab::runtime puts in every program that links it, and
// what it holds: racelab reads it from the file, never by running it.
inline constexpr const char* kRuntimeSection = ".racelab_runtime";
inline constexpr const char kRuntimeMark[] = "racelab-runtime 2";

enum class Strategy : std::int32_t { kRandom = 1, kPct = 2, kReplay = 3 };

enum class Status : std::int32_t {
  kRunning = 0,      // not ended (or the program died)
  kCompleted = 1,    // main returned or called exit; the process exits next
  kDeadlock = 2,     // every thread blocked: text holds the wait-for cycle
  kStepLimit = 3,    // max_steps decisions without progress: a livelock
  kError = 4,        // the channel or the replay was unusable: text says why
  kLengthLimit = 5,  // racelab's limit on decisions in all
};

// A thread that blocked in the kernel outside every scheduling point, whose
// turn the runtime ended (sched::UnmodelledBlock): a note, not a finding.
struct BlockNote {
  static constexpr std::size_t kWhereBytes = 512;
  std::int32_t thread;
  std::int32_t step;
  char where[kWhereBytes];  // NUL-terminated
};

struct Channel {
  static constexpr std::uint32_t kMagic = 0x33434c52;  // "RLC3"
  static constexpr int kMaxDecisions = 1 << 20;
  static constexpr std::size_t kTextBytes = std::size_t{1} << 20;
  static constexpr int kMaxBlockNotes = 16;

  // Written by the parent before the program starts.
  std::uint32_t magic;
  Strategy strategy;
  std::uint64_t seed;
  std::int32_t depth;          // pct
  std::int32_t step_estimate;  // pct: the longest schedule seen so far
  std::int32_t max_steps;
  std::int32_t spin_bound;
  std::int32_t replay_count;  // replay
  // The descriptor the sanitizer writes its reports to (a pipe the parent
  // reads), never the program's stderr; -1: leave them where they go.
  std::int32_t report_fd;
  std::int32_t replay[kMaxDecisions];

  // Written by the program.
  std::uint64_t heartbeat;  // decisions made
  std::int32_t count;
  std::int32_t decisions[kMaxDecisions];
  std::int32_t status;   // a Status, written last (release)
  std::int32_t threads;  // logical threads the run created, main included
  std::uint64_t text_size;
  char text[kTextBytes];  // the deadlock report or error, a blank line, the
                          // trace table
  // Unmodelled blocks, written as they happen (so a crash or a hang later in
  // the run still tells of them): how many, and the first kMaxBlockNotes.
  std::int32_t block_count;
  BlockNote blocks[kMaxBlockNotes];
};

}  // namespace racelab::program_channel

#endif  // RACELAB_PROGRAM_CHANNEL_H_
